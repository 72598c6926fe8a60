/*
 * Loading a script's text: handed to Lua's parser a line at a time, so that an error it
 * raises without a place is placed at the line it was reading.
 */
#include "sandbox.h"

/* Text handed to Lua's parser a line at a time, so that an error it raises without a place
 * can be placed at the line it was reading: a C stack overflow (code nested too deeply, in
 * Lua 5.4 raised without chunkname:line:) or running out of memory. */
typedef struct dwell_lua_lines {
  const char *text;
  size_t length, offset;
  int line; /* the line handed out last (1 is the first), as Lua counts lines */
} dwell_lua_lines;

static const char *dwell_lua_read_line(lua_State *L, void *data, size_t *size) {
  (void)L;
  dwell_lua_lines *lines = (dwell_lua_lines *)data;
  size_t start = lines->offset, end = start;
  /* A line ends at \n, \r, \r\n or \n\r, as Lua's lexer counts them. */
  while (end < lines->length && lines->text[end] != '\n' && lines->text[end] != '\r') end++;
  if (end < lines->length) {
    char first = lines->text[end++];
    if (end < lines->length && (lines->text[end] == '\n' || lines->text[end] == '\r') && lines->text[end] != first)
      end++;
  }
  *size = end - start;
  if (end == start) return NULL;
  lines->offset = end;
  lines->line++;
  return lines->text + start;
}

/// Loads a text chunk (never a binary one) of `length` bytes, NULs included; `line` is set to
/// the line the parser was reading when it stopped (the last line on success).
int dwell_lua_loadtext(lua_State *L, const char *text, size_t length, const char *chunkname, int *line) {
  dwell_lua_lines lines = {text, length, 0, 0};
  int status = lua_load(L, dwell_lua_read_line, &lines, chunkname, "t");
  *line = lines.line;
  return status;
}
