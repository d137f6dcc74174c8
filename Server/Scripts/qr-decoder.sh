#!/usr/bin/env bash
# Sets up the independent QR decoder the QR code tests read images back with (zxing-cpp, with
# Pillow, and CairoSVG to rasterise SVG, which needs the cairo library from Debian) in a virtual
# environment of its own, and prints its Python: WAYPOINT_QR_DECODER="$(bash Server/Scripts/qr-decoder.sh)".
set -euo pipefail
venv="${XDG_CACHE_HOME:-$HOME/.cache}/waypoint-links-qr-decoder-zxing-3.1.1"
if ! ldconfig -p | grep -q 'libcairo\.so\.2 '; then
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcairo2 >/dev/null
fi
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import zxingcpp, cairosvg, PIL" 2>/dev/null; then
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet "zxing-cpp==3.1.1" "pillow==13.0.0" "CairoSVG==2.9.1" "numpy==2.4.6" >&2
fi
echo "$venv/bin/python"
