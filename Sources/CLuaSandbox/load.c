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
  long long deadline; /* monotonic nanoseconds past which no more text is handed out; 0: none */
  int late;           /* 1 once the deadline passed: the parser was handed the end early */
} dwell_lua_lines;

static const char *dwell_lua_read_line(lua_State *L, void *data, size_t *size) {
  (void)L;
  dwell_lua_lines *lines = (dwell_lua_lines *)data;
  /* Reading the text counts against reading's own time: past the deadline the parser is
   * told the text ended (the clock is read every 16 lines: a line is at most the file). */
  if (lines->deadline && lines->offset < lines->length && (lines->line & 15) == 0 &&
      dwell_lua_monotonic_ns() > lines->deadline) {
    lines->late = 1;
    *size = 0;
    return NULL;
  }
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
/// the line the parser was reading when it stopped (the last line on success). While the
/// pack loads (`limits->loading`), parsing counts against a time limit of its own for all
/// the pack's files (`read_ms`, ScriptLimits.timeToRead), apart from the time its code may
/// run (`load_ms`): a pack whose code fits any load limit loads the same under it, however
/// long its text took to read within that generous bound. Past what is left of it, the
/// parser is stopped and the status is LUA_ERRRUN with "time limit exceeded reading the
/// pack (N ms)" (N: the whole limit) on the stack, without a place.
int dwell_lua_loadtext(lua_State *L, dwell_lua_limits *limits, const char *text, size_t length,
                       const char *chunkname, int *line) {
  long long start = dwell_lua_monotonic_ns();
  long long left = limits && limits->loading ? limits->read_ms * 1000000LL - limits->read_ns : 0;
  dwell_lua_lines lines = {text, length, 0, 0, 0, 0};
  if (limits && limits->loading && limits->read_ms > 0) lines.deadline = start + (left > 0 ? left : 1);
  int status = lua_load(L, dwell_lua_read_line, &lines, chunkname, "t");
  *line = lines.line;
  if (limits && limits->loading) limits->read_ns += dwell_lua_monotonic_ns() - start;
  if (lines.late) {
    lua_pop(L, 1); /* the chunk, or the error of a text cut short */
    int enforce = limits->enforce;
    limits->enforce = 0; /* outside any protected call: the message's allocation may not fail */
    lua_pushfstring(L, "time limit exceeded reading the pack (%I ms)", (lua_Integer)limits->read_ms);
    limits->enforce = enforce;
    return LUA_ERRRUN;
  }
  return status;
}
