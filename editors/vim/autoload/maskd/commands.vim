vim9script
# maskd: what the commands of plugin/maskd.vim do, and the statusline component.

import autoload './client.vim'
import autoload './fields.vim'
import autoload './offset.vim'

# The presets of PROTOCOL.md section 4, for completion before the daemon has started.
const KNOWN_PRESETS = ['amount', 'bankcard.cn', 'card', 'date', 'expiry', 'iban', 'id.cn',
  'phone', 'phone.cn', 'phone.us', 'time']

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

# Completion of :MaskdField and :MaskdSetMask: preset names starting with `lead`.
export def Complete(lead: string, line: string, pos: number): list<string>
  return filter(PresetNames(), (_, n) => strpart(n, 0, len(lead)) ==# lead)
enddef

# Returns the MaskSpec that a command argument stands for: one of g:maskd_presets, a
# preset of the running daemon ({"preset": name}), a JSON object (when it starts with
# "{"), or else bracket notation as it is.
export def Resolve(arg: string): any
  var name = trim(arg)
  var own = get(g:, 'maskd_presets', {})
  if type(own) == v:t_dict && has_key(own, name)
    return own[name]
  endif
  if client.Running() && index(client.Presets(), name) >= 0
    return {preset: name}
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
  return name
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

# :MaskdField {preset|mask}: over the Visual selection when given a range, else the word
# under the cursor.
export def Field(arg: string, ranged: bool)
  var range = ranged ? VisualRange() : WordRange()
  if type(range) == v:t_string
    Error(range)
    return
  endif
  if !client.Start()
    return
  endif
  var reply = fields.Open(bufnr('%'), range, Resolve(arg))
  if has_key(reply, 'error')
    Error(Message(reply))
  endif
enddef

# Returns the daemon's FieldState of the field at the cursor, or {} (with a message unless
# `quiet`).
def FieldHere(quiet: bool): dict<any>
  var reply = fields.Hints(bufnr('%'), fields.CursorPosition())
  if has_key(reply, 'error')
    Error(Message(reply))
    return {}
  endif
  var state = get(reply, 'result', null)
  if type(state) != v:t_dict
    if !quiet
      Warn('no field under the cursor')
    endif
    return {}
  endif
  return state
enddef

# :MaskdSetMask {preset|mask}: changes the mask of the field under the cursor.
export def SetMask(arg: string)
  var state = FieldHere(false)
  if empty(state)
    return
  endif
  var reply = fields.SetMask(bufnr('%'), state.field, Resolve(arg), fields.CursorPosition())
  if has_key(reply, 'error')
    Error(Message(reply))
  endif
enddef

# :MaskdClose: closes the field under the cursor; its text stays as it is.
export def Close()
  var state = FieldHere(false)
  if empty(state)
    return
  endif
  var reply = fields.Close(bufnr('%'), state.field)
  if has_key(reply, 'error')
    Error(Message(reply))
  endif
enddef

# :MaskdInfo: the state of the field under the cursor, or what the daemon is doing.
export def Info()
  var state = FieldHere(true)
  if empty(state)
    var info = get(client.Server(), 'serverInfo', {})
    if empty(info)
      echomsg 'maskd: not running'
    else
      echomsg printf('maskd %s: no field under the cursor (%d in this buffer)',
        get(info, 'version', '?'), len(fields.List(bufnr('%'))))
    endif
    return
  endif
  var text = printf('maskd %s: %s  mask %s', state.field, fields.Describe(state), get(state, 'mask', '?'))
  var ph = get(state, 'placeholder', '')
  if type(ph) == v:t_string && ph != ''
    text ..= '  to fill ' .. ph
  endif
  echomsg text
enddef

# :MaskdFields: the fields of the buffer in the quickfix list.
export def Fields()
  var bufnr = bufnr('%')
  var reply = fields.Fetch(bufnr)
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
