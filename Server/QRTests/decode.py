"""Decodes QR code images with zxing-cpp, a decoder independent of Waypoint's encoder.

Usage: decode.py FILE...  (PNG, or SVG, rasterised with CairoSVG first)
Prints one JSON object a line: {"file", "text", "ecLevel", "version"} or {"file", "error"}.
"""
import io
import json
import sys

import cairosvg
import zxingcpp
from PIL import Image


def load(path):
    with open(path, "rb") as handle:
        data = handle.read()
    if path.endswith(".svg"):
        # The SVG says how wide to draw it; CairoSVG honours that.
        data = cairosvg.svg2png(bytestring=data)
    return Image.open(io.BytesIO(data)).convert("L")


for path in sys.argv[1:]:
    try:
        image = load(path)
        found = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
        if len(found) != 1:
            print(json.dumps({"file": path, "error": f"{len(found)} QR codes found"}))
            continue
        code = found[0]
        extra = code.extra if isinstance(code.extra, dict) else {}
        print(json.dumps({
            "file": path,
            "text": code.text,
            "ecLevel": code.ec_level,
            "version": extra.get("Version"),
            "size": image.size[0],
        }))
    except Exception as error:  # a file that cannot be read is reported, not dropped
        print(json.dumps({"file": path, "error": str(error)}))
