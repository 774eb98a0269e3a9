#include "CNcurses.h"

WINDOW *haul_stdscr(void) { return stdscr; }
int haul_lines(void) { return LINES; }
int haul_cols(void) { return COLS; }
int haul_colors(void) { return COLORS; }
int haul_color_pairs(void) { return COLOR_PAIRS; }

int haul_color_pair(int pair) { return COLOR_PAIR(pair); }
int haul_getmaxy(WINDOW *window) { return getmaxy(window); }
int haul_getmaxx(WINDOW *window) { return getmaxx(window); }

int haul_put_wide(WINDOW *window, int y, int x, wchar_t character, unsigned int attributes, short pair) {
    wchar_t text[2] = { character, 0 };
    cchar_t cell;
    if (setcchar(&cell, text, (attr_t)attributes, pair, NULL) != OK) return ERR;
    return mvwadd_wch(window, y, x, &cell);
}
