/// CNcurses: <ncursesw/curses.h> for Swift, with functions for the macros and C globals
/// (stdscr, LINES, COLS, COLOR_PAIR, attributes, key codes) that Swift cannot import.
#ifndef HAUL_CNCURSES_H
#define HAUL_CNCURSES_H

#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <locale.h>

// MARK: - Globals

WINDOW *haul_stdscr(void);
int haul_lines(void);
int haul_cols(void);
int haul_colors(void);
int haul_color_pairs(void);
/// Whether the terminal can move the cursor to a place (terminfo's `cup`): without it no
/// full-screen UI can be drawn.
int haul_can_address_cursor(void);

// MARK: - Macros

int haul_color_pair(int pair);
int haul_getmaxy(WINDOW *window);
int haul_getmaxx(WINDOW *window);

// MARK: - Attributes

static const unsigned int haul_a_normal = A_NORMAL;
static const unsigned int haul_a_bold = A_BOLD;
static const unsigned int haul_a_dim = A_DIM;
static const unsigned int haul_a_reverse = A_REVERSE;
static const unsigned int haul_a_underline = A_UNDERLINE;
static const unsigned int haul_a_standout = A_STANDOUT;

// MARK: - Keys

static const int haul_key_resize = KEY_RESIZE;
static const int haul_key_mouse = KEY_MOUSE;
static const int haul_key_up = KEY_UP;
static const int haul_key_down = KEY_DOWN;
static const int haul_key_left = KEY_LEFT;
static const int haul_key_right = KEY_RIGHT;
static const int haul_key_home = KEY_HOME;
static const int haul_key_end = KEY_END;
static const int haul_key_npage = KEY_NPAGE;
static const int haul_key_ppage = KEY_PPAGE;
static const int haul_key_backspace = KEY_BACKSPACE;
static const int haul_key_dc = KEY_DC;
static const int haul_key_enter = KEY_ENTER;
static const int haul_key_code_yes = KEY_CODE_YES;

/// Puts one cell at (y, x): `text` is a spacing character followed by any combining ones,
/// NUL-terminated; with attributes and colour pair.
int haul_put_cell(WINDOW *window, int y, int x, const wchar_t *text, unsigned int attributes, short pair);

// MARK: - Mouse

/// Reports clicks and the wheel (with the terminal's mouse reporting on).
void haul_enable_mouse(void);

/// Reads the pending mouse event: returns 1 for a click, 2 for wheel up, 3 for wheel down, 0 for
/// anything else, and its row in *row.
int haul_read_mouse(int *row);

#endif
