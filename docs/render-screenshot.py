#!/usr/bin/python3
"""Render a terminal screen captured with `tmux capture-pane -p -e` to PNG.

usage: render-screenshot.py SCREEN.ansi OUT.png

Needs Pillow (Debian: apt-get install python3-pil; run with /usr/bin/python3)
and the DejaVu fonts (fonts-dejavu-core). Understands what capture-pane -e
writes: SGR colours (16, 256 and RGB), bold, dim, italics, underline,
reverse. Cells are laid out on a fixed grid; a glyph the monospace font lacks
is drawn from DejaVu Sans. `make screenshots` runs it on the demo's screens.
"""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = "/usr/share/fonts/truetype/dejavu/"
SIZE = 15
PAD = 12
BG = (30, 30, 36)
FG = (220, 220, 220)
# A dark palette close to common terminal themes.
BASE16 = [
    (40, 42, 54), (230, 90, 90), (120, 200, 110), (230, 200, 90),
    (100, 150, 230), (200, 120, 220), (90, 200, 210), (200, 200, 200),
    (110, 110, 120), (255, 120, 120), (150, 230, 140), (250, 225, 120),
    (140, 180, 255), (230, 150, 245), (130, 230, 240), (255, 255, 255),
]


def colour256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + (n - 232) * 10
    return (v, v, v)


class Cell:
    __slots__ = ("ch", "fg", "bg", "bold", "dim", "ul", "rev", "it")


def parse(text):
    """Lines of cells from capture-pane -e output."""
    rows = []
    style = dict(fg=None, bg=None, bold=False, dim=False, ul=False,
                 rev=False, it=False)
    for line in text.split("\n"):
        row = []
        pos = 0
        for m in re.finditer(r"\x1b\[([0-9;:]*)m|\x1b[()][0-9A-Za-z]|"
                             r"\x1b\][^\x07]*\x07|(.)", line):
            if m.group(2) is not None:
                c = Cell()
                c.ch = m.group(2)
                for k, v in style.items():
                    setattr(c, k, v)
                row.append(c)
                continue
            if m.group(1) is None:
                continue
            codes = [int(x) if x else 0 for x in
                     re.split("[;:]", m.group(1))] or [0]
            i = 0
            while i < len(codes):
                n = codes[i]
                if n == 0:
                    style.update(fg=None, bg=None, bold=False, dim=False,
                                 ul=False, rev=False, it=False)
                elif n == 1:
                    style["bold"] = True
                elif n == 2:
                    style["dim"] = True
                elif n == 3:
                    style["it"] = True
                elif n == 4:
                    style["ul"] = True
                elif n == 7:
                    style["rev"] = True
                elif n == 22:
                    style["bold"] = style["dim"] = False
                elif n == 23:
                    style["it"] = False
                elif n == 24:
                    style["ul"] = False
                elif n == 27:
                    style["rev"] = False
                elif 30 <= n <= 37:
                    style["fg"] = BASE16[n - 30]
                elif 90 <= n <= 97:
                    style["fg"] = BASE16[n - 90 + 8]
                elif 40 <= n <= 47:
                    style["bg"] = BASE16[n - 40]
                elif 100 <= n <= 107:
                    style["bg"] = BASE16[n - 100 + 8]
                elif n == 39:
                    style["fg"] = None
                elif n == 49:
                    style["bg"] = None
                elif n in (38, 48) and i + 1 < len(codes):
                    key = "fg" if n == 38 else "bg"
                    if codes[i + 1] == 5 and i + 2 < len(codes):
                        style[key] = colour256(codes[i + 2])
                        i += 2
                    elif codes[i + 1] == 2 and i + 4 < len(codes):
                        style[key] = tuple(codes[i + 2:i + 5])
                        i += 4
                i += 1
        rows.append(row)
    while rows and not rows[-1]:
        rows.pop()
    return rows


def glyph(font, ch):
    """The pixels of one character: equal to U+FFFF's when it is missing."""
    img = Image.new("L", (SIZE * 2, SIZE * 2))
    ImageDraw.Draw(img).text((0, 0), ch, font=font, fill=255)
    return img.tobytes()


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = parse(open(sys.argv[1], encoding="utf-8",
                      errors="replace").read())
    mono = ImageFont.truetype(FONT_DIR + "DejaVuSansMono.ttf", SIZE)
    bold = ImageFont.truetype(FONT_DIR + "DejaVuSansMono-Bold.ttf", SIZE)
    wide = ImageFont.truetype(FONT_DIR + "DejaVuSans.ttf", SIZE)
    missing = glyph(mono, "\uffff")
    has = {}
    cw = int(round(mono.getlength("M")))
    ch = SIZE + 4
    cols = max(len(r) for r in rows)
    img = Image.new("RGB", (cols * cw + 2 * PAD, len(rows) * ch + 2 * PAD),
                    BG)
    draw = ImageDraw.Draw(img)
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            fg, bg = c.fg or FG, c.bg or BG
            if c.rev:
                fg, bg = bg, fg
            if c.dim:
                fg = tuple(v * 2 // 3 for v in fg)
            px, py = PAD + x * cw, PAD + y * ch
            if bg != BG:
                draw.rectangle([px, py, px + cw - 1, py + ch - 1], fill=bg)
            if c.ch == " ":
                continue
            font = bold if c.bold else mono
            if c.ch not in has:
                has[c.ch] = glyph(mono, c.ch) != missing
            if not has[c.ch]:
                font = wide
            draw.text((px, py + 1), c.ch, font=font, fill=fg)
            if c.ul:
                draw.line([px, py + ch - 2, px + cw - 1, py + ch - 2],
                          fill=fg)
    img.save(sys.argv[2], optimize=True)


if __name__ == "__main__":
    main()
