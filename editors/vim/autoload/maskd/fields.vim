vim9script
# maskd: what the plugin knows about the fields of each buffer, and what happens to them.
#
# For every attached buffer: the last FieldState the daemon sent for each field, the
# versions the plugin's own edits produced (their didChange is the daemon's echo), the
# placeholder still to fill shown after each field as virtual text, and counters that the
# tests and :MaskdInfo read.  The `maskd/didFormat` handler lives here too.

import autoload './client.vim'
import autoload './offset.vim'
import autoload './textedit.vim'

const PROP = 'maskd_placeholder'

var bufs: dict<dict<any>> = {}

# Returns the plugin's record of `bufnr`, created on first use.
export def Buf(bufnr: number): dict<any>
  var key = string(bufnr)
  if !has_key(bufs, key)
    bufs[key] = {
      fields: {},
      own: {},
      last: {rejected: '', overflow: ''},
      shown: {},
      opens: {},
      masks: {},
      refresh: 0,
      resync: {},
      # The versions an undo or a redo made, whose didFormat is not applied.
      undone: {},
      stats: {formats: 0, applied: 0, stale: 0, echo: 0, undo: 0, resynced: 0, reopened: 0, last_version: -1},
    }
  endif
  return bufs[key]
enddef

# Forgets `bufnr` (it was detached or the daemon went away) and clears its placeholders.
def Forget(bufnr: number)
  if has_key(bufs, string(bufnr))
    var b = remove(bufs, string(bufnr))
    if b.refresh != 0
      timer_stop(b.refresh)
    endif
  endif
  ClearProps(bufnr)
enddef

# Placeholders ------------------------------------------------------------------------------

# Returns whether this Vim can show text that is not in the buffer (9.0.0067 and later).
export def CanShowPlaceholder(): bool
  return has('textprop') && has('patch-9.0.0067')
enddef

def ClearProps(bufnr: number)
  if CanShowPlaceholder() && bufloaded(bufnr) && !empty(prop_type_get(PROP))
    prop_remove({type: PROP, bufnr: bufnr, all: true})
  endif
enddef

# Redraws the placeholders of `bufnr`: the tail of each field still to fill, as virtual
# text right after the field (g:maskd_placeholder = 0 turns them off).
export def Render(bufnr: number)
  if !CanShowPlaceholder() || !bufloaded(bufnr)
    return
  endif
  if empty(prop_type_get(PROP))
    prop_type_add(PROP, {highlight: 'MaskdPlaceholder'})
  endif
  ClearProps(bufnr)
  # prop_list() of this Vim does not give the text of a virtual text property: keep it.
  var shown: dict<string> = {}
  var b = Buf(bufnr)
  b.shown = shown
  if !get(g:, 'maskd_placeholder', true)
    return
  endif
  var count = get(get(getbufinfo(bufnr), 0, {}), 'linecount', 0)
  for s in List(bufnr)
    var ph = get(s, 'placeholder', '')
    if type(ph) != v:t_string || ph == '' || s.range.end.line >= count
      continue
    endif
    var [lnum, byte] = offset.BytePos(bufnr, s.range.end)
    var id = prop_add(lnum, byte + 1, {type: PROP, bufnr: bufnr, text: ph})
    shown[string(id)] = ph
  endfor
enddef

# Returns the placeholders shown in `bufnr` as [lnum, col, text] (1-based, bytes).
export def Placeholders(bufnr: number): list<list<any>>
  var out: list<list<any>> = []
  if !CanShowPlaceholder() || empty(prop_type_get(PROP)) || !has_key(bufs, string(bufnr))
    return out
  endif
  var shown = get(Buf(bufnr), 'shown', {})
  var count = get(get(getbufinfo(bufnr), 0, {}), 'linecount', 0)
  for lnum in range(1, count)
    for p in prop_list(lnum, {bufnr: bufnr, types: [PROP]})
      add(out, [lnum, p.col, get(shown, string(p.id), '')])
    endfor
  endfor
  return out
enddef

# Field states ------------------------------------------------------------------------------

def IsState(s: any): bool
  return type(s) == v:t_dict && type(get(s, 'field', 0)) == v:t_string
    && type(get(s, 'range', 0)) == v:t_dict
enddef

# Records FieldStates (a list, as didFormat's `fields`); other fields are kept.
export def Update(bufnr: number, states: any)
  var b = Buf(bufnr)
  if type(states) == v:t_list
    for s in states
      if IsState(s)
        b.fields[s.field] = s
      endif
    endfor
  endif
  Render(bufnr)
enddef

# Returns whether a didFormat's cursor `pos` goes where Vim's cursor is: with edits it always
# does; without, only when it lies in one of `states` (didFormat's `fields`), the engine's caret
# in the field typed in.  Elsewhere the change reached beyond its fields (a deleted, replaced or
# joined line), and the cursor stays where the person's command put it.
def Holds(states: any, pos: any): bool
  if type(states) != v:t_list || type(pos) != v:t_dict
    return false
  endif
  for s in states
    if IsState(s) && s.range.start.line == pos.line && s.range.end.line == pos.line
        && s.range.start.character <= pos.character && pos.character <= s.range.end.character
      return true
    endif
  endfor
  return false
enddef

# Forgets the fields of `bufnr` whose ids are in `ids` (didFormat's `closed`) and stops
# drawing them.
def ForgetClosed(bufnr: number, ids: any)
  if type(ids) != v:t_list || empty(ids)
    return
  endif
  var b = Buf(bufnr)
  for id in ids
    if type(id) == v:t_string
      for d in [b.fields, b.masks, b.opens]
        if has_key(d, id)
          remove(d, id)
        endif
      endfor
    endif
  endfor
  Render(bufnr)
enddef

# Replaces every recorded field of `bufnr` by `states` (as maskd/fields returns them).
export def Reset(bufnr: number, states: any)
  var b = Buf(bufnr)
  b.fields = {}
  Update(bufnr, states)
enddef

def Before(a: dict<any>, b: dict<any>): number
  var x = a.range.start
  var y = b.range.start
  return x.line != y.line ? x.line - y.line : x.character - y.character
enddef

# Returns the recorded fields of `bufnr` in document order.
export def List(bufnr: number): list<dict<any>>
  if !has_key(bufs, string(bufnr))
    return []
  endif
  return sort(values(bufs[string(bufnr)].fields), Before)
enddef

# Returns the recorded field containing or touching UTF-16 position (line, character), or {}.
export def At(bufnr: number, line: number, character: number): dict<any>
  for s in List(bufnr)
    var r = s.range
    if r.start.line == line && r.start.character <= character && character <= r.end.character
      return s
    endif
  endfor
  return {}
enddef

# Returns the LSP Position of the cursor in the current window.
export def CursorPosition(): dict<number>
  return offset.Position(bufnr('%'), line('.'), col('.') - 1)
enddef

# Returns the positions where the field "at the cursor" may be: the cursor's, and in Normal
# mode, where the cursor stands on a character, also the place after that character (a
# field that starts right after it, such as an empty one after "Phone: ").
export def CursorPositions(): list<dict<number>>
  var out = [CursorPosition()]
  var text = getline('.')
  var byte = col('.') - 1
  if mode() !~ '^[iR]' && byte < len(text)
    add(out, offset.Position(bufnr('%'), line('.'), byte + len(matchstr(strpart(text, byte), '^.'))))
  endif
  return out
enddef

# Returns the recorded field under the cursor of the current window, or {}.
export def UnderCursor(): dict<any>
  for pos in CursorPositions()
    var s = At(bufnr('%'), pos.line, pos.character)
    if !empty(s)
      return s
    endif
  endfor
  return {}
enddef

# Returns whether `v` is JSON true.
export def Flag(v: any): bool
  return type(v) == v:t_bool && v
enddef

# Returns a one-line description of FieldState `s`, as :MaskdInfo and the statusline show it:
# "visa 4111111111111111 [valid]", "555 [incomplete, next digit]".
export def Describe(s: dict<any>): string
  var parts: list<string> = []
  if type(get(s, 'brand', 0)) == v:t_string
    add(parts, s.brand)
  endif
  var value = get(s, 'value', '')
  add(parts, type(value) == v:t_string && value != '' ? value : '(empty)')
  var how: string
  if Flag(get(s, 'valid', false))
    how = 'valid'
  elseif Flag(get(s, 'complete', false))
    var problems = get(s, 'problems', [])
    how = 'invalid' .. (type(problems) == v:t_list && !empty(problems) ? ': ' .. join(problems, ', ') : '')
  else
    var next = get(s, 'next', null)
    how = 'incomplete' .. (type(next) == v:t_string ? ', next ' .. next : '')
  endif
  add(parts, '[' .. how .. ']')
  return join(parts, ' ')
enddef

# Edits -------------------------------------------------------------------------------------

# Returns whether `bufnr` is still at `version` once what the person did since has gone
# out: an answer for `version` is stale when it has not.  The changes Vim has not reported
# yet (keys typed while the answer was on its way) must go out before edits are applied,
# or they would join the edits' didChange, whose version would then pass for the echo and
# the daemon's formatting of those keys would be dropped.
def StillAt(bufnr: number, version: number): bool
  client.Flush(bufnr)
  return client.Version(bufnr) == version
enddef

# Applies the daemon's `edits` to `bufnr` and sends their echo at once, remembering its
# version as the plugin's own.  The callers have checked StillAt() (the flush here sends
# nothing then, so the echo's version holds the edits alone).
def ApplyOwn(bufnr: number, edits: any, join: bool)
  if type(edits) != v:t_list || empty(edits)
    return
  endif
  client.Flush(bufnr)
  var before = client.Version(bufnr)
  if textedit.Apply(bufnr, edits, join)
    client.Flush(bufnr)
    var after = client.Version(bufnr)
    if after != before
      var own = Buf(bufnr).own
      own[string(after)] = true
    endif
  endif
enddef

# Handles `maskd/didFormat`: drops it when it answers the plugin's own edits or when the
# buffer has moved past its version; otherwise applies its edits joined to the person's
# undo step, places the cursor and records the fields.  Sends only the echo.  The lines of
# the fields a dropped one formatted are brought into form again once the buffer has
# settled (see Resync()).
def OnDidFormat(params: any)
  if type(params) != v:t_dict || type(get(params, 'textDocument', 0)) != v:t_dict
    return
  endif
  var bufnr = client.BufnrOf(get(params.textDocument, 'uri', ''))
  if bufnr < 0 || !bufloaded(bufnr)
    return
  endif
  var b = Buf(bufnr)
  var version = get(params.textDocument, 'version', -1)
  b.stats.formats += 1
  b.stats.last_version = version
  # The daemon closed these fields when the change reached it (their line deleted, replaced or
  # joined away): they are forgotten whatever becomes of the rest of this notification.
  ForgetClosed(bufnr, get(params, 'closed', []))
  # No cursor: field rules opened the fields it carries (at open, or after the rules were read
  # again), with no change of the person's behind it.  That is no answer to a change, so it is
  # applied even at a version of the plugin's own edits.  Its formatting is an undo step of its
  # own, as an open is, and undoing it closes those fields (see UndoneOpens()).
  var opening = type(get(params, 'cursor', null)) != v:t_dict
  if has_key(b.own, string(version)) && !opening
    b.stats.echo += 1
    return
  endif
  # What the person did since goes out first, and makes this notification stale.
  if !StillAt(bufnr, version)
    b.stats.stale += 1
    var states = get(params, 'fields', [])
    for s in type(states) == v:t_list ? states : []
      if IsState(s)
        b.resync[string(s.range.start.line)] = true
      endif
    endfor
    return
  endif
  filter(b.undone, (k, _) => str2nr(k) >= version)
  if !opening && has_key(b.undone, string(version))
    # An undo or a redo gives back text the person had: it is kept as it is, and the cursor
    # stays where the undo put it.  Applying an edit now would start a new branch of the
    # undo tree and lose the redo.  The daemon's copy is still the buffer's (its edits enter
    # it only with their echo); the fields' states are kept when nothing was to change.
    b.stats.undo += 1
    if empty(get(params, 'edits', []))
      Update(bufnr, get(params, 'fields', []))
    endif
    return
  endif
  filter(b.own, (k, _) => str2nr(k) > version)
  var before = bufnr == bufnr('%') ? changenr() : -1
  ApplyOwn(bufnr, get(params, 'edits', []), !opening)
  if opening && before >= 0 && changenr() != before
    var opens = b.opens
    for s in get(params, 'fields', [])
      if IsState(s)
        opens[s.field] = changenr()
      endif
    endfor
  endif
  if !empty(get(params, 'edits', [])) || Holds(get(params, 'fields', []), get(params, 'cursor', null))
    textedit.SetCursor(bufnr, get(params, 'cursor', null))
  endif
  Update(bufnr, get(params, 'fields', []))
  b.last = {rejected: get(params, 'rejected', ''), overflow: get(params, 'overflow', '')}
  b.stats.applied += 1
  if exists('#User#MaskdFormat')
    doautocmd <nomodeline> User MaskdFormat
  endif
enddef

def ByStart(x: dict<any>, y: dict<any>): number
  var a = x.range.start
  var b = y.range.start
  return a.line != b.line ? a.line - b.line : a.character - b.character
enddef

# Returns LSP Position `pos` moved by `edits` (TextEdits against the text it is in), as a
# caret moves with text changed around it: edits before it shift it, an edit over it puts it
# after the edit's new text, edits after it leave it.
def Shifted(pos: dict<any>, edits: list<any>): dict<any>
  var line = pos.line
  var character = pos.character
  var delta = 0
  # Only the edits on the caret's line move it (a range command brings one per line).
  var here = filter(copy(edits), (_, e) => e.range.start.line == line && e.range.end.line == line)
  for e in sort(here, ByStart)
    var r = e.range
    if r.start.character > character
      continue
    endif
    var text = get(e, 'newText', '')
    if r.end.character <= character
      delta += offset.Utf16Len(text) - (r.end.character - r.start.character)
    else
      return {line: line, character: r.start.character + offset.Utf16Len(text) + delta}
    endif
  endfor
  return {line: line, character: character + delta}
enddef

# Brings the fields on the lines of dropped didFormat notifications into form.  A
# didFormat the plugin dropped (keys came faster than its answer, or the wait for it timed
# out) leaves what the daemon refused in it in the buffer.  The didFormat of the next change
# formats such a field whole (protocol.md, Echo), but when the last answer was dropped too,
# nothing would.  So once nothing is on its way (Await() emitted 'settled'),
# textDocument/rangeFormatting reads those fields' text into their masks afresh; its edits
# are the ones the daemon waits for, and the plugin applies them as its own, in the
# person's undo step, the cursor moved with them.
def Resync(bufnr: number)
  if !has_key(bufs, string(bufnr))
    return
  endif
  var b = Buf(bufnr)
  if empty(b.resync) || !client.Attached(bufnr) || !bufloaded(bufnr)
    return
  endif
  var lines = sort(mapnew(keys(b.resync), (_, k) => str2nr(k)), 'n')
  b.resync = {}
  var count = get(get(getbufinfo(bufnr), 0, {}), 'linecount', 0)
  var first = min([lines[0], count - 1])
  var last = min([lines[-1], count - 1])
  if first < 0
    return
  endif
  client.Flush(bufnr)
  var version = client.Version(bufnr)
  var reply = client.Request('textDocument/rangeFormatting', {
    textDocument: {uri: client.Document(bufnr).uri},
    range: {start: {line: first, character: 0},
            end: {line: last, character: offset.Utf16Len(get(getbufline(bufnr, last + 1), 0, ''))}},
    options: {tabSize: &tabstop, insertSpaces: &expandtab ? true : false},
  })
  var result = get(reply, 'result', [])
  if type(result) != v:t_list || !StillAt(bufnr, version)
    return
  endif
  var edits = filter(copy(result), (_, e) => type(e) == v:t_dict && type(get(e, 'range', 0)) == v:t_dict)
  if empty(edits)
    return
  endif
  var current = bufnr == bufnr('%')
  var caret = current ? CursorPosition() : {}
  ApplyOwn(bufnr, edits, true)
  if current
    textedit.SetCursor(bufnr, Shifted(caret, edits))
  endif
  b.stats.resynced += 1
  Fetch(bufnr)
enddef

# Applies an openField or setMask result: its edits when the buffer is still at its
# version, its cursor, and the field's state.  An open that changed the text is
# remembered, so that undoing it closes the field (see UndoneOpens()).
def ApplyResult(bufnr: number, result: any, spec: any, opening: bool)
  if type(result) != v:t_dict
    return
  endif
  Remember(bufnr, get(result, 'field', ''), spec)
  var state = get(result, 'state', {})
  var current = !has_key(result, 'version') || StillAt(bufnr, result.version)
  if !current && IsState(state)
    # Answered after the person typed on: its edits are for text that is gone.
    var resync = Buf(bufnr).resync
    resync[string(state.range.start.line)] = true
  endif
  if current
    var before = bufnr == bufnr('%') ? changenr() : -1
    ApplyOwn(bufnr, get(result, 'edits', []), false)
    textedit.SetCursor(bufnr, get(result, 'cursor', null))
    if opening && before >= 0 && changenr() != before && type(get(result, 'field', 0)) == v:t_string
      var opens = Buf(bufnr).opens
      opens[result.field] = changenr()
    endif
  endif
  Update(bufnr, [get(result, 'state', {})])
enddef

# Records the MaskSpec field `id` of `bufnr` was opened (or last re-masked) with: what
# opening it again after a restart takes.
def Remember(bufnr: number, id: any, spec: any)
  if type(id) == v:t_string && id != ''
    var masks = Buf(bufnr).masks
    masks[id] = spec
  endif
enddef

# Returns LSP Position `pos` after TextDocumentContentChangeEvent `change` (a range), for a
# place outside the replaced text; `sticky`: a place at the change's start goes after the
# inserted text.
def Moved(pos: dict<any>, change: dict<any>, sticky: bool): dict<any>
  var s = change.range.start
  var e = change.range.end
  if pos.line < s.line || (pos.line == s.line && (pos.character < s.character || (pos.character == s.character && !sticky)))
    return pos
  endif
  var parts = split(change.text, "\n", true)
  var tail = offset.Utf16Len(parts[-1])
  if pos.line > e.line
    return {line: pos.line + len(parts) - 1 - (e.line - s.line), character: pos.character}
  endif
  # On the change's last line, at or after its end.
  var base = len(parts) == 1 ? s.character + tail : tail
  return {line: s.line + len(parts) - 1, character: base + max([0, pos.character - e.character])}
enddef

def Cmp(a: dict<any>, b: dict<any>): number
  return a.line != b.line ? a.line - b.line : a.character - b.character
enddef

# Moves the recorded ranges of `bufnr`'s fields by `change` as the daemon moves its fields
# (Protocol/protocol.md, field tracking): an edit outside a field shifts it, an insertion
# at either boundary or inside belongs to it (a line break at its end does not), a deletion
# overlapping it clips it.  The daemon's states replace these as they come; while it is
# away these are what opening the fields again takes.
def Track(p: dict<any>)
  var change = get(p, 'change', {})
  if empty(change) || !has_key(bufs, string(p.bufnr))
    return
  endif
  var s = change.range.start
  var e = change.range.end
  var breaks = change.text =~ "\n"
  for st in values(Buf(p.bufnr).fields)
    var r = st.range
    var fs = r.start
    var fe = r.end
    var ns: dict<any>
    var ne: dict<any>
    if Cmp(e, fs) < 0 || (Cmp(e, fs) == 0 && (Cmp(s, e) < 0 || breaks))
      # Wholly before the field (a deletion ending at it, a line break inserted at it).
      ns = Moved(fs, change, true)
      ne = Moved(fe, change, true)
    elseif Cmp(s, fe) > 0 || (Cmp(s, fe) == 0 && (Cmp(s, e) < 0 || breaks))
      continue
    else
      # At a boundary or overlapping: the field keeps what is left of it and the new text.
      ns = Cmp(s, fs) < 0 ? s : fs
      var inserted = Moved(s, {range: {start: s, end: s}, text: change.text}, true)
      var kept = Cmp(fe, e) > 0 ? Moved(fe, change, true) : inserted
      ne = Cmp(kept, inserted) >= 0 ? kept : inserted
    endif
    st.range = {start: ns, end: ne}
  endfor
enddef

# Opens again, in a new daemon, every field of `bufnr` where its text is now, with its mask
# and id, in one request; what was typed meanwhile is formatted (forced: what does not fit
# is dropped, as typing it would have been).
def Reopen(bufnr: number)
  if !has_key(bufs, string(bufnr))
    return
  endif
  var b = Buf(bufnr)
  # Changes not reported yet move the ranges (Track()) before they are read.
  client.Flush(bufnr)
  var entries: list<dict<any>> = []
  for st in List(bufnr)
    if has_key(b.masks, st.field) && st.range.start.line == st.range.end.line
      add(entries, {range: st.range, mask: b.masks[st.field], field: st.field})
    endif
  endfor
  b.fields = {}
  b.opens = {}
  b.own = {}
  if empty(entries)
    b.stats.reopened += 1
    return
  endif
  # Not waited for: a large document's answer may take longer than a keystroke.
  OpenMany(bufnr, entries, true, (got) => {
    var [opened, errors] = got
    if !empty(errors)
      echohl WarningMsg
      echomsg printf('maskd: %d of %d fields not opened again: %s', len(errors), len(entries), errors[0][1])
      echohl None
    endif
    b.stats.reopened += 1
  })
enddef

# Closes the fields of the current buffer `bufnr` whose opening an undo has just taken
# back, before the daemon hears of the undo: the text is then as it was before the open,
# and stays so.  Called by the client before each didChange of the buffer.
def UndoneOpens(p: dict<any>)
  if !has_key(bufs, string(p.bufnr)) || p.bufnr != bufnr('%')
    return
  endif
  var b = Buf(p.bufnr)
  for [id, nr] in items(b.opens)
    if changenr() < nr
      remove(b.opens, id)
      if has_key(b.fields, id)
        remove(b.fields, id)
      endif
      client.Post('maskd/closeField', {textDocument: {uri: client.Uri(p.bufnr)}, field: id})
      Render(p.bufnr)
    endif
  endfor
enddef

# Requests ----------------------------------------------------------------------------------

# Sends request `method` with `params` and hands the response to `Finish`, which applies it
# and returns it: waiting for it when `Done` is unset (the response is returned), else from
# the channel's callback, `Done` getting what `Finish` returned (and {} is returned now).
def Call(method: string, params: dict<any>, Finish: func, Done: any): dict<any>
  if type(Done) != v:t_func
    return Finish(client.Request(method, params))
  endif
  client.RequestThen(method, params, (reply) => Done(Finish(reply)))
  return {}
enddef

# Opens a field over LSP Range `range` of `bufnr` (or, given {at: Position}, where the daemon
# chooses around that cursor: maskd/openField's `at`) with MaskSpec `mask` (and id `id` unless
# empty; `force`: even where text would be lost), attaching the buffer first.  Returns the
# daemon's response ({result} or {error}), or with `Done` (a Funcref) returns at once and
# calls Done(response) when it comes.  An answer that comes after the person typed on has
# its field read again once the buffer settles.
export def Open(bufnr: number, range: dict<any>, mask: any, id = '', force = false, Done: any = 0): dict<any>
  if !client.Attach(bufnr)
    var e = {error: {code: -32603, message: 'maskd is not running'}}
    if type(Done) == v:t_func
      Done(e)
    endif
    return e
  endif
  var params: dict<any> = {textDocument: {}, mask: mask}
  if has_key(range, 'at')
    params.at = range.at
  else
    params.range = range
  endif
  if id != ''
    params.field = id
  endif
  if force
    params.force = true
  endif
  client.Flush(bufnr)
  params.textDocument = client.Document(bufnr)
  return Call('maskd/openField', params, (reply) => {
    if has_key(reply, 'result')
      ApplyResult(bufnr, reply.result, mask, true)
    endif
    return reply
  }, Done)
enddef

# Opens the fields `entries` ({range, mask, field?} each; a range over several lines opens
# a field on each of its lines, as the daemon splits it) of `bufnr` in one
# maskd/openFields.  Returns [opened, errors]: the count, and [line, message] for each field
# that did not open.  With `Done` (a Funcref) it returns [] at once and calls Done(that)
# when the answer comes.
export def OpenMany(bufnr: number, entries: list<dict<any>>, force = false, Done: any = 0): list<any>
  if empty(entries)
    return [0, []]
  endif
  var ranges = mapnew(entries, (_, e) => e.range)
  if !client.Attach(bufnr)
    return [0, [[ranges[0].start.line, 'maskd is not running']]]
  endif
  client.Flush(bufnr)
  var sent = force ? mapnew(entries, (_, e) => extendnew(e, {force: true})) : entries
  var params: dict<any> = {textDocument: client.Document(bufnr), fields: sent}
  if force
    params.force = true
  endif
  if type(Done) == v:t_func
    client.RequestThen('maskd/openFields', params, (reply) => Done(ApplyMany(bufnr, entries, reply)))
    return []
  endif
  return ApplyMany(bufnr, entries, client.Request('maskd/openFields', params))
enddef

# Applies the answer to maskd/openFields for `entries` (see OpenMany()).
def ApplyMany(bufnr: number, entries: list<dict<any>>, reply: dict<any>): list<any>
  var ranges = mapnew(entries, (_, e) => e.range)
  if has_key(reply, 'error')
    return [0, [[ranges[0].start.line, get(reply.error, 'message', string(reply.error))]]]
  endif
  var results = get(reply.result, 'results', [])
  var current = bufnr == bufnr('%')
  var caret = current ? CursorPosition() : {}
  var all: list<any> = []
  var states: list<any> = []
  var errors: list<any> = []
  # An entry over several lines has a result per line: the results are then not the
  # entries', and an error says its line's range itself.
  var own = len(results) == len(entries)
  for i in range(len(results))
    var r = results[i]
    if type(r) == v:t_dict && has_key(r, 'error')
      var where = own ? ranges[i] : get(r, 'range', {start: {line: -1}})
      add(errors, [where.start.line, get(r.error, 'message', '')])
    elseif type(r) == v:t_dict
      var edits = get(r, 'edits', [])
      var state = get(r, 'state', {})
      var mergeable = own && (!current || ranges[i].start.line != caret.line)
      if mergeable && type(edits) == v:t_list && len(edits) > 1 && type(state) == v:t_dict && type(get(state, 'text', 0)) == v:t_string
        # A field's edits lie within the range it was opened over: one replacement of the
        # range by the field's text is the same change, in a third of the buffer updates
        # (not on the caret's line, where the edits say how the caret moves).
        add(all, {range: ranges[i], newText: state.text})
      else
        extend(all, edits)
      endif
      add(states, state)
      Remember(bufnr, get(r, 'field', ''), entries[own ? i : 0].mask)
    endif
  endfor
  if !empty(all) && StillAt(bufnr, get(reply.result, 'version', -1))
    ApplyOwn(bufnr, all, false)
    if current
      textedit.SetCursor(bufnr, Shifted(caret, all))
    endif
  elseif !empty(all)
    # Answered after the person typed on: the fields are read again once the buffer settles.
    var resync = Buf(bufnr).resync
    for st in states
      resync[string(st.range.start.line)] = true
    endfor
  endif
  Update(bufnr, states)
  return [len(states), errors]
enddef

# Changes the mask of field `id` of `bufnr`; what was entered re-flows, and the cursor (LSP
# Position `position`) keeps its count of entered characters to its left.  `Done` as for
# Open().
export def SetMask(bufnr: number, id: string, mask: any, position: dict<any>, force = false, Done: any = 0): dict<any>
  client.Flush(bufnr)
  var params: dict<any> = {textDocument: client.Document(bufnr), field: id, mask: mask, position: position}
  if force
    params.force = true
  endif
  return Call('maskd/setMask', params, (reply) => {
    if has_key(reply, 'result')
      ApplyResult(bufnr, reply.result, mask, false)
    endif
    return reply
  }, Done)
enddef

# Closes field `id` of `bufnr`; its text stays, but for the zeros a padFraction number gets:
# the daemon sends them before its reply as a didFormat, which OnDidFormat() applies like any
# other, the cursor (LSP Position `position`, when given) carried through them.  `Done` as
# for Open().
export def Close(bufnr: number, id: string, position: dict<any> = {}, Done: any = 0): dict<any>
  client.Flush(bufnr)
  var params: dict<any> = {textDocument: client.Document(bufnr), field: id}
  if !empty(position)
    params.position = position
  endif
  return Call('maskd/closeField', params, (reply) => {
    if has_key(reply, 'result') && has_key(Buf(bufnr).fields, id)
      remove(Buf(bufnr).fields, id)
      Render(bufnr)
    endif
    return reply
  }, Done)
enddef

# Returns the daemon's response to maskd/formatHints at `position` of `bufnr`: the FieldState
# of the field containing or touching it, or null.  The state is recorded too.  `Done` as
# for Open().
export def Hints(bufnr: number, position: dict<any>, Done: any = 0): dict<any>
  if !client.Attached(bufnr)
    if type(Done) == v:t_func
      Done({result: null})
    endif
    return {result: null}
  endif
  client.Flush(bufnr)
  return Call('maskd/formatHints', {textDocument: client.Document(bufnr), position: position}, (reply) => {
    if IsState(get(reply, 'result', null))
      Update(bufnr, [reply.result])
    endif
    return reply
  }, Done)
enddef

# Returns the daemon's response to maskd/fields for `bufnr`, recording every state.  `Done`
# as for Open().
export def Fetch(bufnr: number, Done: any = 0): dict<any>
  if !client.Attached(bufnr)
    if type(Done) == v:t_func
      Done({result: []})
    endif
    return {result: []}
  endif
  client.Flush(bufnr)
  return Call('maskd/fields', {textDocument: client.Document(bufnr)}, (reply) => {
    if type(get(reply, 'result', null)) == v:t_list
      Reset(bufnr, reply.result)
    endif
    return reply
  }, Done)
enddef

# A change that touches no field gets no didFormat, yet it can move fields (a line inserted
# above, text typed before a field on its line).  So shortly after changes the states of a
# buffer with fields are fetched again (maskd/fields), once for a burst of changes.
const REFRESH_MS = 20

def OnChanged(p: dict<any>)
  if !has_key(bufs, string(p.bufnr))
    return
  endif
  var b = Buf(p.bufnr)
  if get(p, 'undo', false)
    b.undone[string(p.version)] = true
  endif
  if !empty(b.fields) && get(b, 'refresh', 0) == 0
    b.refresh = timer_start(REFRESH_MS, (_) => Refresh(p.bufnr))
  endif
enddef

def Refresh(bufnr: number)
  if !has_key(bufs, string(bufnr))
    return
  endif
  var b = Buf(bufnr)
  b.refresh = 0
  if client.Attached(bufnr) && bufloaded(bufnr) && !empty(b.fields)
    Fetch(bufnr)
  endif
enddef

client.On('maskd/didFormat', OnDidFormat)
client.On('sending', UndoneOpens)
client.On('changed', Track)
client.On('changed', OnChanged)
client.On('restarted', (p) => Reopen(p.bufnr))
client.On('settled', (p) => Resync(p.bufnr))
client.On('detach', (p) => Forget(p.bufnr))
