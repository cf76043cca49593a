vim9script
# maskd: what the commands of plugin/maskd.vim do, and the statusline component.

import autoload './client.vim'
import autoload './fields.vim'
import autoload './offset.vim'

# The presets of Protocol/presets.md, for completion before the daemon has started.
const KNOWN_PRESETS = ['amount', 'bankcard.cn', 'card', 'date', 'expiry', 'iban', 'id.cn',
  'phone', 'phone.cn', 'phone.us', 'postal', 'time']

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

# Returns the preset names for completion: g:maskd_presets first, then the daemon's.
export def PresetNames(): list<string>
  var names = sort(keys(get(g:, 'maskd_presets', {})))
  for name in client.Running() ? client.Presets() : KNOWN_PRESETS
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
    var codes = preset == 'phone' ? client.PhoneRegions() : client.PostalRegions()
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

# Returns the ranges, one per line, of :MaskdField over lines line1..line2: the Visual
# selection's part of each line when the range is the last selection (characterwise: from
# its start on the first line to its end on the last; blockwise: its columns), else each
# line without its leading and trailing blanks.
export def LineRanges(line1: number, line2: number): list<dict<any>>
  var bufnr = bufnr('%')
  var first = getpos("'<")
  var last = getpos("'>")
  var vmode = first[1] == line1 && last[1] == line2 ? visualmode() : ''
  var out: list<dict<any>> = []
  for lnum in range(line1, line2)
    var text = getline(lnum)
    var s: number
    var e: number
    if vmode ==# 'v'
      s = lnum == line1 ? min([first[2] - 1, len(text)]) : 0
      e = lnum == line2 ? min([last[2] - 1 + len(matchstr(strpart(text, last[2] - 1), '^.')), len(text)]) : len(text)
    elseif vmode ==# "\<C-v>"
      s = min([min([first[2], last[2]]) - 1, len(text)])
      e = min([max([first[2], last[2]]), len(text)])
    else
      s = len(matchstr(text, '^\s*'))
      e = max([s, len(text) - len(matchstr(text, '\s*$'))])
    endif
    add(out, {start: offset.Position(bufnr, lnum, s), end: offset.Position(bufnr, lnum, e)})
  endfor
  return out
enddef

# Ranges ------------------------------------------------------------------------------------

# Returns the range :MaskdField takes without a selection, as an LSP Range.  On a non-blank
# character: the WORD around it.  On a blank or an empty line: an empty range right after the
# cursor's character, so that a field opens after "Phone: ".  In Insert mode the caret is
# between characters: the WORD that ends at it, or an empty range there.
export def WordRange(): dict<any>
  var bufnr = bufnr('%')
  var lnum = line('.')
  var text = getline(lnum)
  var caret = col('.') - 1
  var s: number
  var e: number
  if mode() =~ '^[iR]'
    var word = matchstr(strpart(text, 0, caret), '\S*$')
    [s, e] = [caret - len(word), caret]
  else
    var ch = matchstr(strpart(text, caret), '^.')
    if ch == '' || ch =~ '^\s$'
      [s, e] = [caret + len(ch), caret + len(ch)]
    else
      s = caret - len(matchstr(strpart(text, 0, caret), '\S*$'))
      e = caret + len(matchstr(strpart(text, caret), '^\S*'))
    endif
  endif
  return {start: offset.Position(bufnr, lnum, s), end: offset.Position(bufnr, lnum, e)}
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
        Warn(printf('%d of %d fields opened; line %d: %s', opened, len(ranges), errors[0][0] + 1, errors[0][1]))
      endif
    })
    return
  endif
  var range = count > 0 ? VisualRange() : WordRange()
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
  if count == 0 && range.start != range.end
    range = WidestRun(range, spec)
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

# Returns the widest run of words around the word `range` (one blank apart, at most three
# each side) that MaskSpec `spec` reads without dropping a letter or a digit (maskd/apply),
# else `range`: text formatted before (+1 (555) 123-4567) is taken whole.
def WidestRun(range: dict<any>, spec: any): dict<any>
  var bufnr = bufnr('%')
  var lnum = range.start.line + 1
  var text = getline(lnum)
  var s = offset.ByteCol(text, range.start.character)
  var words: list<list<number>> = []
  var at = 0
  while true
    var m = matchstrpos(text, '\S\+', at)
    if m[1] < 0
      break
    endif
    add(words, [m[1], m[2]])
    at = m[2]
  endwhile
  var k = indexof(words, (_, w) => w[0] == s)
  if k < 0
    return range
  endif
  var lo = k
  var hi = k
  while lo > 0 && k - lo < 3 && words[lo][0] - words[lo - 1][1] == 1
    lo -= 1
  endwhile
  while hi < len(words) - 1 && hi - k < 3 && words[hi + 1][0] - words[hi][1] == 1
    hi += 1
  endwhile
  var runs: list<list<number>> = []
  for i in range(lo, k)
    for j in range(k, hi)
      if i != j || i != k
        add(runs, [words[i][0], words[j][1]])
      endif
    endfor
  endfor
  sort(runs, (a, b) => (b[1] - b[0]) - (a[1] - a[0]))
  for [first, last] in runs
    var reply = client.Request('maskd/apply', {mask: spec, text: strpart(text, first, last - first)})
    var r = get(reply, 'result', {})
    if type(r) == v:t_dict && get(r, 'rejected', 'x') == '' && get(r, 'overflow', 'x') == ''
      return {start: offset.Position(bufnr, lnum, first), end: offset.Position(bufnr, lnum, last)}
    endif
  endfor
  return range
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
