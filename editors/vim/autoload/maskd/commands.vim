vim9script
# maskd: what the commands of plugin/maskd.vim do, and the statusline component.

import autoload './client.vim'
import autoload './fields.vim'
import autoload './offset.vim'

def Error(text: string)
  echohl ErrorMsg
  echomsg 'maskd: ' .. text
  echohl None
enddef

def Warn(text: string)
  echohl WarningMsg
  echomsg 'maskd: ' .. text
  echohl None
enddef

def Message(reply: dict<any>): string
  var e = get(reply, 'error', {})
  return type(e) == v:t_dict ? string(get(e, 'message', e)) : string(e)
enddef

# Field rules -------------------------------------------------------------------------------

# Attaches `bufnr`, a file's buffer, when field rules may apply to it: g:maskd_rules, or a
# .maskd.json in its directory or one above (that directory becomes a workspace folder).
# The daemon decides which lines are fields; with neither, no daemon is started.
export def AttachForRules(bufnr: number)
  if !bufloaded(bufnr) || getbufvar(bufnr, '&buftype') != ''
    return
  endif
  var name = bufname(bufnr)
  # Only files: a `scheme://` buffer has no folder and no rules file.
  if name == '' || name =~ '^\a[[:alnum:]+.-]*://'
    return
  endif
  var folder = client.RulesFolder(fnamemodify(name, ':p:h'))
  if folder == '' && empty(client.Rules())
    return
  endif
  # An attached buffer's folder may be new (a .maskd.json saved since it opened).
  if folder != ''
    client.AddFolder(folder)
  endif
  if client.Attached(bufnr)
    return
  endif
  # Loads fields.vim (autoloaded on first use), whose didFormat handler must be in place
  # before the daemon answers the didOpen with the fields the rules opened.
  fields.Buf(bufnr)
  client.Attach(bufnr)
enddef

# Tells the daemon that the .maskd.json at `path` was saved: it reads its folder's rules again
# (workspace/didChangeWatchedFiles; a new folder joins the workspace instead), and the buffers
# under that folder that were not attached are attached now.
export def RulesFileSaved(path: string)
  var file = fnamemodify(path, ':p')
  var dir = fnamemodify(file, ':h')
  if client.Running() && index(client.Folders(), dir) >= 0
    client.Notify('workspace/didChangeWatchedFiles', {changes: [{uri: client.FileUri(file), type: 2}]})
  endif
  for info in getbufinfo({bufloaded: 1})
    if strpart(fnamemodify(info.name, ':p'), 0, len(dir) + 1) ==# dir .. '/'
      AttachForRules(info.bufnr)
    endif
  endfor
enddef

# Masks -------------------------------------------------------------------------------------

# Returns the preset names for completion: g:maskd_presets first, then the daemon's (from
# its initialize result; completing starts it, as the command completed will).
export def PresetNames(): list<string>
  var names = sort(keys(get(g:, 'maskd_presets', {})))
  for name in client.Running() || client.Start() ? client.Presets() : []
    if index(names, name) < 0
      add(names, name)
    endif
  endfor
  return names
enddef

# Completion of :MaskdField and :MaskdSetMask: preset names starting with `lead`, or after
# `phone ` or `postal ` the region codes the daemon announced for it (:MaskdField phone GB).
export def Complete(lead: string, line: string, pos: number): list<string>
  var preset = matchstr(strpart(line, 0, pos), '^\s*\S\+\s\+\zs\(phone\|postal\)\ze\s\+\S*$')
  if preset != ''
    var upper = toupper(lead)
    var codes = !client.Running() && !client.Start() ? []
      : preset == 'phone' ? client.PhoneRegions() : client.PostalRegions()
    return filter(copy(codes), (_, c) => strpart(c, 0, len(upper)) ==# upper)
  endif
  return filter(PresetNames(), (_, n) => strpart(n, 0, len(lead)) ==# lead)
enddef

# Returns the MaskSpec that a command argument stands for: one of g:maskd_presets, a
# preset of the running daemon ({"preset": name}), a JSON object (when it starts with
# "{"), or else bracket notation as it is.  A word without brackets or spaces can only be a
# preset's name: when there is none of that name, throws a message listing them.
export def Resolve(arg: string): any
  var name = trim(arg)
  var own = get(g:, 'maskd_presets', {})
  if type(own) == v:t_dict && has_key(own, name)
    return own[name]
  endif
  if client.Running() && index(client.Presets(), name) >= 0
    return {preset: name}
  endif
  # `phone GB`: the phone preset for a region's national numbers; `postal GB`: its postal codes.
  var regional = matchlist(name, '^\(phone\|postal\)\s\+\(\a\a\)$')
  if !empty(regional) && client.Running() && index(client.Presets(), regional[1]) >= 0
    return {preset: regional[1], region: toupper(regional[2])}
  endif
  if name =~ '^{'
    try
      var spec = json_decode(name)
      if type(spec) == v:t_dict
        return spec
      endif
    catch
    endtry
  endif
  if name =~ '^[[:alnum:]._-]\+$'
    throw printf("maskd: unknown preset '%s' (presets: %s)", name, join(PresetNames(), ', '))
  endif
  return name
enddef

# Returns Resolve(arg), or null after showing its message.
def ResolveOrSay(arg: string): any
  try
    return Resolve(arg)
  catch /^maskd: /
    Error(substitute(v:exception, '^maskd: ', '', ''))
  endtry
  return null
enddef

# Returns the ranges of :MaskdField over lines line1..line2, as LSP Ranges: the Visual
# selection when the range is the last selection (characterwise: one range from its start to
# its end; blockwise: its columns on each line), else one range over the whole lines.  The
# daemon opens a field on each line of a range over several lines, over that line's part
# without the blanks around it, and skips the lines with nothing else.
export def LineRanges(line1: number, line2: number): list<dict<any>>
  var bufnr = bufnr('%')
  var first = getpos("'<")
  var last = getpos("'>")
  var vmode = first[1] == line1 && last[1] == line2 ? visualmode() : ''
  var lastText = getline(line2)
  if vmode ==# 'v'
    var s = min([first[2] - 1, len(getline(line1))])
    var e = min([last[2] - 1 + len(matchstr(strpart(lastText, last[2] - 1), '^.')), len(lastText)])
    return [{start: offset.Position(bufnr, line1, s), end: offset.Position(bufnr, line2, e)}]
  elseif vmode !=# "\<C-v>"
    return [{start: {line: line1 - 1, character: 0}, end: offset.Position(bufnr, line2, len(lastText))}]
  endif
  var out: list<dict<any>> = []
  for lnum in range(line1, line2)
    var text = getline(lnum)
    var s = min([min([first[2], last[2]]) - 1, len(text)])
    var e = min([max([first[2], last[2]]), len(text)])
    add(out, {start: offset.Position(bufnr, lnum, s), end: offset.Position(bufnr, lnum, e)})
  endfor
  return out
enddef

# Ranges ------------------------------------------------------------------------------------

# Returns where :MaskdField opens without a selection, as {at: Position} for maskd/openField:
# the daemon takes the WORD holding the character just before that position, widened to the
# words around it that the mask reads whole, or opens an empty field there after a blank.  In
# Normal mode the cursor stands on a character, so the position is after it (on the blank of
# "Phone: " a field opens after it); in Insert mode it is the caret.
export def CursorAt(): dict<any>
  var lnum = line('.')
  var caret = col('.') - 1
  if mode() !~ '^[iR]'
    caret += len(matchstr(strpart(getline(lnum), caret), '^.'))
  endif
  return {at: offset.Position(bufnr('%'), lnum, caret)}
enddef

# Returns the range of the last Visual selection as an LSP Range, or a String saying why
# there is none.
export def VisualRange(): any
  var bufnr = bufnr('%')
  var first = getpos("'<")
  var last = getpos("'>")
  if first[1] == 0 || first[1] != last[1]
    return 'a field is one line: select it within a line'
  endif
  var text = getline(first[1])
  var s = min([first[2] - 1, len(text)])
  var e = len(text)
  if visualmode() !=# 'V' && last[2] - 1 < len(text)
    # '> marks the first byte of the last character; the range ends after it.
    e = last[2] - 1 + len(matchstr(strpart(text, last[2] - 1), '^.'))
  endif
  if visualmode() ==# 'V'
    s = 0
  endif
  return {start: offset.Position(bufnr, first[1], s), end: offset.Position(bufnr, first[1], e)}
enddef

# Commands ----------------------------------------------------------------------------------

# :MaskdField[!] {preset|mask}: over the Visual selection when given a range (over several
# lines: a field on each line, in one request), else the word under the cursor; with !,
# even where the text would not fit the mask.  An empty field opened from Normal mode
# starts Insert mode in it (g:maskd_insert_on_open, default true).
export def Field(arg: string, count: number, line1: number, line2: number, force: bool)
  if count > 0 && line1 != line2
    if !client.Start()
      return
    endif
    var spec = ResolveOrSay(arg)
    if spec == null
      return
    endif
    var ranges = LineRanges(line1, line2)
    fields.OpenMany(bufnr('%'), mapnew(ranges, (_, r) => ({range: r, mask: spec})), force, (got) => {
      var [opened, errors] = got
      if !empty(errors)
        Warn(printf('%d of %d fields opened; line %d: %s', opened, opened + len(errors), errors[0][0] + 1, errors[0][1]))
      endif
    })
    return
  endif
  var range = count > 0 ? VisualRange() : CursorAt()
  if type(range) == v:t_string
    Error(range)
    return
  endif
  if !client.Start()
    return
  endif
  var spec = ResolveOrSay(arg)
  if spec == null
    return
  endif
  var normal = mode() !~ '^[iR]'
  fields.Open(bufnr('%'), range, spec, '', force, (reply) => Opened(reply, normal))
enddef

# What :MaskdField does with the daemon's answer: says why it did not open, or starts Insert
# mode in a field opened empty from Normal mode (at the end of a line the Normal-mode
# cursor cannot stand in the field).
def Opened(reply: dict<any>, normal: bool)
  if has_key(reply, 'error')
    Error(Message(reply))
    return
  endif
  var state = get(reply.result, 'state', {})
  if normal && mode() !~ '^[iR]' && get(g:, 'maskd_insert_on_open', true) && type(state) == v:t_dict && get(state, 'text', 'x') == ''
    var [lnum, byte] = offset.BytePos(bufnr('%'), state.range.start)
    # From a callback :startinsert would wait for the next command: the key goes first in
    # the typeahead instead ("a" after the last character, "i" before the field's one).
    var text = getline(lnum)
    if byte >= len(text) && text != ''
      cursor(lnum, len(text))
      feedkeys('a', 'in')
    else
      cursor(lnum, byte + 1)
      feedkeys('i', 'in')
    endif
  endif
enddef

# Calls `Fn(state)` with the daemon's FieldState of the field at the cursor (touching it,
# or in Normal mode touching either side of the character under it) when it comes; when
# there is none, says so unless `quiet`, and then calls Fn({}).
def WithField(quiet: bool, Fn: func)
  Ask(bufnr('%'), fields.CursorPositions(), 0, quiet, Fn)
enddef

def Ask(bufnr: number, positions: list<dict<number>>, i: number, quiet: bool, Fn: func)
  fields.Hints(bufnr, positions[i], (reply) => {
    if has_key(reply, 'error')
      Error(Message(reply))
      return
    endif
    var state = get(reply, 'result', null)
    if type(state) == v:t_dict
      Fn(state)
    elseif i + 1 < len(positions)
      Ask(bufnr, positions, i + 1, quiet, Fn)
    elseif quiet
      Fn({})
    else
      Warn('no field under the cursor')
    endif
  })
enddef

# Shows the error of `reply`, if any.
def SayError(reply: dict<any>)
  if has_key(reply, 'error')
    Error(Message(reply))
  endif
enddef

# :MaskdSetMask[!] {preset|mask}: changes the mask of the field under the cursor.
export def SetMask(arg: string, force: bool)
  var spec = ResolveOrSay(arg)
  if spec == null
    return
  endif
  WithField(false, (state) => {
    fields.SetMask(bufnr('%'), state.field, spec, fields.CursorPosition(), force, SayError)
  })
enddef

# :MaskdClose: closes the field under the cursor; its text stays as it is.
export def Close()
  WithField(false, (state) => {
    fields.Close(bufnr('%'), state.field, fields.CursorPosition(), SayError)
  })
enddef

# :MaskdInfo: the state of the field under the cursor, or what the daemon is doing.
export def Info()
  if !client.Running()
    echomsg 'maskd: not running'
    return
  endif
  WithField(true, ShowInfo)
enddef

def ShowInfo(state: dict<any>)
  if empty(state)
    var info = get(client.Server(), 'serverInfo', {})
    echomsg printf('maskd %s: no field under the cursor (%d in this buffer)',
      get(info, 'version', '?'), len(fields.List(bufnr('%'))))
    return
  endif
  # The daemon's diagnostics are off for plugin buffers: an invalid field's problems are in
  # Describe(), an incomplete one's is what is still to fill.
  var text = printf('maskd %s: %s', state.field, fields.Describe(state))
  var ph = get(state, 'placeholder', '')
  if type(ph) == v:t_string && ph != ''
    text ..= '  to fill ' .. ph
  endif
  text ..= '  mask ' .. get(state, 'mask', '?')
  # One line that fits, so there is no hit-enter prompt.
  var room = v:echospace - 1
  if strdisplaywidth(text) > room
    while strdisplaywidth(text) > room - 1 && text != ''
      text = strcharpart(text, 0, strchars(text) - 1)
    endwhile
    text ..= '…'
  endif
  echomsg text
enddef

# :MaskdFields: the fields of the buffer in the quickfix list.
export def Fields()
  var bufnr = bufnr('%')
  fields.Fetch(bufnr, (reply) => ListFields(bufnr, reply))
enddef

def ListFields(bufnr: number, reply: dict<any>)
  if has_key(reply, 'error')
    Error(Message(reply))
    return
  endif
  var items: list<dict<any>> = []
  for s in fields.List(bufnr)
    var [lnum, byte] = offset.BytePos(bufnr, s.range.start)
    var [elnum, ebyte] = offset.BytePos(bufnr, s.range.end)
    add(items, {
      bufnr: bufnr, lnum: lnum, col: byte + 1, end_lnum: elnum, end_col: ebyte + 1,
      text: printf('%s  %s  (%s)', s.text, fields.Describe(s), get(s, 'mask', '')),
      type: fields.Flag(get(s, 'valid', false)) ? 'I' : fields.Flag(get(s, 'complete', false)) ? 'E' : 'W',
    })
  endfor
  setqflist([], ' ', {title: 'maskd fields', items: items})
  if empty(items)
    echomsg 'maskd: no fields in this buffer'
  else
    botright copen
  endif
enddef

# A statusline component: the state of the field under the cursor, or '' when there is none
# (from the last state the daemon sent; no request is made).
#   set statusline+=%{maskd#commands#Status()}
export def Status(): string
  var s = fields.UnderCursor()
  return empty(s) ? '' : 'maskd ' .. fields.Describe(s)
enddef
