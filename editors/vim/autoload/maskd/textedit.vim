vim9script
# maskd: applying the daemon's TextEdits to a buffer and placing the cursor.
#
# Vim has no built-in "apply text edits", so this is written out: the edits are applied
# from the last to the first, so that the positions of the ones still to apply stay valid,
# each one replacing the text between two byte positions.  `silent! undojoin` comes first,
# so that one `u` undoes the person's keystroke and the formatting it caused together.

import autoload './offset.vim'

# Returns -1, 0 or 1 as LSP position `a` is before, at or after `b`.
def Compare(a: dict<any>, b: dict<any>): number
  if a.line != b.line
    return a.line < b.line ? -1 : 1
  endif
  return a.character == b.character ? 0 : a.character < b.character ? -1 : 1
enddef

# Replaces the text from [slnum, sbyte] to [elnum, ebyte] (1-based lines, 0-based bytes) of
# `bufnr` by `text`, which may hold line breaks.
def Replace(bufnr: number, slnum: number, sbyte: number, elnum: number, ebyte: number, text: string)
  var first = get(getbufline(bufnr, slnum), 0, '')
  var last = get(getbufline(bufnr, elnum), 0, '')
  var joined = strpart(first, 0, sbyte) .. substitute(text, '\r\n\|\r', "\n", 'g') .. strpart(last, ebyte)
  var lines = split(joined, "\n", true)
  var old = elnum - slnum + 1
  var common = min([old, len(lines)])
  # Only lines that change are set, so a one-character edit touches one line.
  for i in range(common)
    if get(getbufline(bufnr, slnum + i), 0, '') !=# lines[i]
      setbufline(bufnr, slnum + i, lines[i])
    endif
  endfor
  if len(lines) > old
    appendbufline(bufnr, slnum + old - 1, lines[old :])
  elseif old > len(lines)
    deletebufline(bufnr, slnum + common, elnum)
  endif
enddef

# Applies `edits` (LSP TextEdits against the current text of `bufnr`, not overlapping) to
# `bufnr`.  With `join`, the first change is joined to the previous undo step (the person's
# change); `undojoin` fails harmlessly right after an undo, hence the `silent!`.  Edits
# with the same start are inserted in the order given, as LSP wants.
# Returns whether the buffer changed.
export def Apply(bufnr: number, edits: list<any>, join: bool): bool
  var indexed: list<list<any>> = []
  for i in range(len(edits))
    var e = edits[i]
    if type(e) == v:t_dict && type(get(e, 'range', 0)) == v:t_dict
      add(indexed, [i, e])
    endif
  endfor
  if empty(indexed)
    return false
  endif
  # Last edit first; among edits at one start, the later one first.
  sort(indexed, (x, y) => {
    var c = Compare(y[1].range.start, x[1].range.start)
    return c != 0 ? c : y[0] - x[0]
  })
  var current = bufnr == bufnr('%')
  var tick = getbufvar(bufnr, 'changedtick')
  var joined = !join || !current
  if !join && current
    # An undo step of its own (an open, a mask change), even right after a change made
    # without a keystroke between: setting 'undolevels' closes the current undo block.
    &undolevels = &undolevels
  endif
  for item in indexed
    var e = item[1]
    var [slnum, sbyte] = offset.BytePos(bufnr, e.range.start)
    var [elnum, ebyte] = offset.BytePos(bufnr, e.range.end)
    if elnum < slnum || (elnum == slnum && ebyte < sbyte)
      [elnum, ebyte] = [slnum, sbyte]
    endif
    if !joined
      silent! undojoin
      joined = true
    endif
    Replace(bufnr, slnum, sbyte, elnum, ebyte, get(e, 'newText', ''))
  endfor
  return getbufvar(bufnr, 'changedtick') != tick
enddef

# Puts the cursor of the current window on LSP Position `pos` when the window shows `bufnr`.
# In Insert mode the cursor goes between characters, where the caret is; in Normal mode it
# sits on the character after the caret (Vim moves it back when that is past the end).
export def SetCursor(bufnr: number, pos: any)
  if type(pos) != v:t_dict || bufnr != bufnr('%')
    return
  endif
  var [lnum, byte] = offset.BytePos(bufnr, pos)
  cursor(lnum, byte + 1)
enddef
