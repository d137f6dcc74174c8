#ifndef WAYPOINT_MALLOC_COUNTER_H
#define WAYPOINT_MALLOC_COUNTER_H

/// Whether allocations are being counted on this platform (glibc only).
int waypoint_malloc_counter_available(void);
/// How many allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) so far.
long waypoint_malloc_count(void);
/// Bytes allocated and not yet freed, by usable size.
long waypoint_malloc_live_bytes(void);

#endif
