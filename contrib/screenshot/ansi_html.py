"""Turns what `tmux capture-pane -e -p` printed (stdin) into an HTML page drawing the same cells
(stdout), for contrib/screenshot/screenshot.sh. tmux writes each cell's colours as a change from
the cell before, across lines too, so the state is carried from line to line.
"""
import html
import re
import sys

BASE16 = [
    "#000000", "#cd0000", "#00cd00", "#cdcd00", "#0000ee", "#cd00cd", "#00cdcd", "#e5e5e5",
    "#7f7f7f", "#ff0000", "#00ff00", "#ffff00", "#5c5cff", "#ff00ff", "#00ffff", "#ffffff",
]
DEFAULT_FG, DEFAULT_BG = "#d0d0d0", "#1c1c1c"


def color(index):
    if index < 16:
        return BASE16[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[index // 36], steps[index // 6 % 6], steps[index % 6])
    level = 8 + (index - 232) * 10
    return "#%02x%02x%02x" % (level, level, level)


def apply(codes, state):
    codes = codes or [0]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0:
            state.update(fg=None, bg=None, bold=False, reverse=False, underline=False, dim=False)
        elif code == 1:
            state["bold"] = True
        elif code == 2:
            state["dim"] = True
        elif code == 4:
            state["underline"] = True
        elif code == 7:
            state["reverse"] = True
        elif code == 22:
            state["bold"] = state["dim"] = False
        elif code == 24:
            state["underline"] = False
        elif code == 27:
            state["reverse"] = False
        elif 30 <= code <= 37:
            state["fg"] = color(code - 30)
        elif 90 <= code <= 97:
            state["fg"] = color(code - 90 + 8)
        elif 40 <= code <= 47:
            state["bg"] = color(code - 40)
        elif 100 <= code <= 107:
            state["bg"] = color(code - 100 + 8)
        elif code in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
            state["fg" if code == 38 else "bg"] = color(codes[i + 2])
            i += 2
        elif code in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
            state["fg" if code == 38 else "bg"] = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
            i += 4
        elif code == 39:
            state["fg"] = None
        elif code == 49:
            state["bg"] = None
        i += 1


def span(text, state):
    fg, bg = state["fg"] or DEFAULT_FG, state["bg"] or DEFAULT_BG
    if state["reverse"]:
        fg, bg = bg, fg
    style = "color:%s;background:%s" % (fg, bg)
    if state["bold"]:
        style += ";font-weight:bold"
    if state["dim"]:
        style += ";opacity:0.6"
    if state["underline"]:
        style += ";text-decoration:underline"
    return '<span style="%s">%s</span>' % (style, html.escape(text))


def main():
    columns = int(sys.argv[1])
    state = dict(fg=None, bg=None, bold=False, reverse=False, underline=False, dim=False)
    rows = []
    for line in sys.stdin.read().split("\n"):
        out, width = [], 0
        for part in re.split(r"(\x1b\[[0-9;]*m)", line):
            match = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
            if match:
                apply([int(c) for c in match.group(1).split(";") if c], state)
            elif part:
                out.append(span(part, state))
                width += len(part)
        if width < columns:
            out.append(span(" " * (columns - width), dict(state, fg=None, bg=None, reverse=False)))
        rows.append("".join(out))
    print(
        "<!doctype html><meta charset=utf-8><body style=\"margin:0;background:%s\">"
        "<pre style=\"margin:0;padding:8px;font:15px/1.25 'DejaVu Sans Mono',monospace\">%s</pre>"
        % (DEFAULT_BG, "\n".join(rows)))


main()
