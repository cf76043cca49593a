vim9script
# maskd: positions on the wire and columns in Vim.
#
# Every position maskd sends or takes counts UTF-16 code units; Vim columns count bytes.
# Vim 9.0.1378 has neither utf16idx() nor the utf16 argument of byteidx() (9.0.1485+), so
# both directions are computed here from the code points of the line.  A code point above
# U+FFFF counts two units, every other one (composing characters too) counts one.

# Returns the number of UTF-16 code units in `text`.
export def Utf16Len(text: string): number
  var units = 0
  for cp in str2list(text)
    units += cp > 0xFFFF ? 2 : 1
  endfor
  return units
enddef

# Returns the UTF-16 offset of byte column `byte` (0-based) in `line`.  A byte inside a
# character counts as that character's start; a column past the end is the line's end.
export def Utf16Col(line: string, byte: number): number
  if byte <= 0
    return 0
  endif
  if byte >= len(line)
    return Utf16Len(line)
  endif
  var start = byteidxcomp(line, charidx(line, byte, true))
  return Utf16Len(strpart(line, 0, start))
enddef

# Returns the byte column (0-based) of UTF-16 offset `units` in `line`.  An offset inside a
# surrogate pair moves to the start of its code point; an offset past the end is the end.
export def ByteCol(line: string, units: number): number
  if units <= 0
    return 0
  endif
  var seen = 0
  var index = 0
  for cp in str2list(line)
    var width = cp > 0xFFFF ? 2 : 1
    if seen + width > units
      break
    endif
    seen += width
    index += 1
  endfor
  var byte = byteidxcomp(line, index)
  return byte < 0 ? len(line) : byte
enddef

# Returns the LSP Position of byte column `byte` on line `lnum` (1-based) of buffer `bufnr`.
export def Position(bufnr: number, lnum: number, byte: number): dict<number>
  var text = get(getbufline(bufnr, lnum), 0, '')
  return {line: lnum - 1, character: Utf16Col(text, byte)}
enddef

# Returns [lnum, byte] (1-based line, 0-based byte column) of LSP Position `pos` in buffer
# `bufnr`, clamped to the buffer.
export def BytePos(bufnr: number, pos: dict<any>): list<number>
  var count = max([1, get(get(getbufinfo(bufnr), 0, {}), 'linecount', 1)])
  var lnum = min([max([get(pos, 'line', 0), 0]) + 1, count])
  var text = get(getbufline(bufnr, lnum), 0, '')
  return [lnum, ByteCol(text, get(pos, 'character', 0))]
enddef
