#include "CNcurses.h"
#include <ncursesw/term.h>

WINDOW *haul_stdscr(void) { return stdscr; }
int haul_lines(void) { return LINES; }
int haul_cols(void) { return COLS; }
int haul_colors(void) { return COLORS; }
int haul_color_pairs(void) { return COLOR_PAIRS; }

int haul_color_pair(int pair) { return COLOR_PAIR(pair); }
int haul_getmaxy(WINDOW *window) { return getmaxy(window); }
int haul_getmaxx(WINDOW *window) { return getmaxx(window); }

int haul_put_cell(WINDOW *window, int y, int x, const wchar_t *text, unsigned int attributes, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, (attr_t)attributes, pair, NULL) != OK) return ERR;
    return mvwadd_wch(window, y, x, &cell);
}

void haul_enable_mouse(void) {
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
}

int haul_read_mouse(int *row) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *row = event.y;
    if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 2;
    if (event.bstate & BUTTON5_PRESSED) return 3;
    return 0;
}

int haul_can_address_cursor(void) {
    char *capability = tigetstr("cup");
    return capability != NULL && capability != (char *)-1;
}
