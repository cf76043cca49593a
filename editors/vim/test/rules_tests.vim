vim9script
# Field rules: buffers attach as they open where rules apply (g:maskd_rules, a project's
# .maskd.json), and the fields the daemon opens behave as the plugin's own.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/rules_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'

# The project: a .maskd.json at its top (phone values of YAML files), another in `sub/`
# (CARD= lines of .env files), and the working directory one folder down, so the root the
# plugin names is the folder of the file, not the working directory.
const W = resolve(tempname() .. '-rules')
mkdir(W .. '/sub', 'p')
mkdir(W .. '/docs', 'p')
writefile(['{"rules": [{"files": "**/*.yaml", "match": "^\\s*phone:\\s*(.*)$", "mask": {"preset": "phone.us"}}]}'],
  W .. '/.maskd.json')
writefile(['{"rules": [{"files": "*.env", "match": "^CARD=(.*)$", "mask": {"preset": "card"}}]}'],
  W .. '/sub/.maskd.json')
writefile(['name: Ann', 'phone: 2015550123', 'card: 4111111111111111'], W .. '/people.yaml')
writefile(['phone: 2015550123', 'card: 4111111111111111'], W .. '/people.yml')
writefile(['CARD=4111111111111111', 'OTHER=4111111111111111'], W .. '/sub/pay.env')
writefile(['phone: 2015550123'], W .. '/undo.yaml')
execute 'cd ' .. fnameescape(W .. '/docs')
set hidden
g:maskd_rules = [{files: '*.yaml', match: '^card: (.*)$', mask: {preset: 'card'}}]

def Uri(path: string): string
  return 'file://' .. path
enddef

# Edits `path` (in the project) and waits until line `lnum` reads `want`.
def EditFormatted(path: string, lnum: number, want: string)
  execute 'edit ' .. fnameescape(W .. '/' .. path)
  var waited = 0
  while getline(lnum) != want && waited < 3000
    sleep 1m
    waited += 1
  endwhile
  H.Eq(want, getline(lnum), path .. ' formatted on open')
enddef

# The daemon's fields of the current buffer (maskd/fields), once its messages sent before
# the answer are in.
def DaemonFields(): list<any>
  var reply = fields.Fetch(bufnr('%'))
  H.Settle()
  return get(reply, 'result', ['no answer: ' .. string(reply)])
enddef

def TestOpenFormatted()
  EditFormatted('people.yaml', 3, 'card: 4111 1111 1111 1111')
  H.Eq(['name: Ann', 'phone: +1 (201) 555-0123', 'card: 4111 1111 1111 1111'], getline(1, '$'), 'the buffer')
  H.Eq(W, client.Folders()[0], 'the first workspace folder: the .maskd.json one')
  var list = DaemonFields()
  H.Eq(2, len(list), 'fields')
  H.Eq({source: Uri(W) .. '/.maskd.json', index: 0}, get(list[0], 'rule', {}), "the phone field's rule")
  H.Eq({source: 'initializationOptions', index: 0}, get(list[1], 'rule', {}), "the card field's rule")
  # The plugin knows them as its own: the statusline component, the placeholders (a card may
  # have up to 19 digits).
  cursor(2, 10)
  H.Eq('maskd 2015550123 [valid]', maskd#commands#Status(), 'Status() in the phone field')
  if fields.CanShowPlaceholder()
    H.Eq([[3, 26, ' ___']], fields.Placeholders(bufnr('%')), 'placeholders')
  endif
  H.Eq([2, 10], [line('.'), col('.')], 'the caret')
enddef
H.Case('a YAML file opens formatted by a .maskd.json rule and a g:maskd_rules rule', TestOpenFormatted)

def TestTyping()
  cursor(2, 1)
  H.Insert([["\<BS>", 'phone: +1 (201) 555-012', 23, {lnum: 2}]], 'A')
  if fields.CanShowPlaceholder()
    H.Eq([[2, 24, '_'], [3, 26, ' ___']], fields.Placeholders(bufnr('%')), 'the placeholders of what is left to fill')
  endif
  H.Insert([['3', 'phone: +1 (201) 555-0123', 24, {lnum: 2}]], 'A')
  # A value typed on a new line opens a field with its first digit.
  append(3, 'phone: ')
  client.Flush(bufnr('%'))
  H.Settle()
  cursor(4, 1)
  H.Insert([['5', 'phone: +1 (5', 12, {lnum: 4}]], 'A')
  H.Type('551234567', 'A')
  H.Eq('phone: +1 (555) 123-4567', getline(4), 'the new line typed')
  H.Eq(3, len(DaemonFields()), 'fields')
enddef
H.Case('typing into a rule field formats it as in any field', TestTyping)

def TestExcluded()
  execute 'edit ' .. fnameescape(W .. '/people.yml')
  H.Eq([], DaemonFields(), 'fields of people.yml')
  H.Eq(['phone: 2015550123', 'card: 4111111111111111'], getline(1, '$'), 'people.yml')
enddef
H.Case('a glob that excludes leaves another file untouched', TestExcluded)

def TestSubfolder()
  EditFormatted('sub/pay.env', 1, 'CARD=4111 1111 1111 1111')
  H.Eq(['CARD=4111 1111 1111 1111', 'OTHER=4111111111111111'], getline(1, '$'), 'pay.env')
  H.Eq([W, W .. '/sub'], client.Folders(), 'workspace folders')
enddef
H.Case('a .maskd.json in a subfolder: its folder joins the workspace', TestSubfolder)

def TestClosed()
  execute 'buffer ' .. fnameescape(W .. '/people.yaml')
  cursor(3, 9)
  H.Command('MaskdClose')
  H.Insert([['5', 'card: 4111 1111 1111 11115', 26, {format: false, lnum: 3}]], 'A')
  H.Eq(2, len(DaemonFields()), 'fields left')
  H.Eq({}, fields.At(bufnr('%'), 2, 8), 'a field the plugin shows on the card line')
enddef
H.Case('a rule field closed stays closed', TestClosed)

def TestUndo()
  EditFormatted('undo.yaml', 1, 'phone: +1 (201) 555-0123')
  H.Normal('u', {format: false})
  H.Eq(['phone: 2015550123'], getline(1, '$'), 'undo.yaml after u')
  H.Eq([], DaemonFields(), 'fields after u')
  H.Eq([], fields.List(bufnr('%')), 'fields the plugin shows')
enddef
H.Case('undoing the formatting a file opened with closes its rule fields', TestUndo)

def TestSaved()
  var other = resolve(tempname() .. '-other')
  mkdir(other, 'p')
  writefile(['TEL=2015550123', 'FAX=2015550199'], other .. '/notes.txt')
  execute 'edit ' .. fnameescape(other .. '/notes.txt')
  var notes = bufnr('%')
  H.Eq([], DaemonFields(), 'fields of notes.txt before')
  var tel = {files: '*.txt', match: '^TEL=(.*)$', mask: {preset: 'phone.us'}}
  SaveRules(other, [tel])
  WaitLine(notes, 1, 'TEL=+1 (201) 555-0123', "notes.txt formatted by the new folder's rules")
  H.Eq([W, W .. '/sub', other], client.Folders(), 'workspace folders')
  SaveRules(other, [tel, {files: '*.txt', match: '^FAX=(.*)$', mask: {preset: 'phone.us'}}])
  WaitLine(notes, 2, 'FAX=+1 (201) 555-0199', 'notes.txt formatted by the rule saved next')
  H.Eq(['TEL=+1 (201) 555-0123', 'FAX=+1 (201) 555-0199'], getbufline(notes, 1, '$'), 'notes.txt')
enddef

def SaveRules(dir: string, rules: list<any>)
  execute 'edit ' .. fnameescape(dir .. '/.maskd.json')
  setline(1, json_encode({rules: rules}))
  silent write
enddef

def WaitLine(bufnr: number, lnum: number, want: string, what: string)
  var waited = 0
  while get(getbufline(bufnr, lnum), 0, '') != want && waited < 3000
    sleep 1m
    waited += 1
  endwhile
  H.Eq(want, get(getbufline(bufnr, lnum), 0, ''), what)
enddef
H.Case('a .maskd.json saved in Vim takes effect at once, in a new folder and again', TestSaved)

def TestNoRules()
  client.Stop()
  unlet g:maskd_rules
  var elsewhere = resolve(tempname() .. '-plain')
  mkdir(elsewhere, 'p')
  writefile(['phone: 2015550123'], elsewhere .. '/plain.yaml')
  execute 'edit ' .. fnameescape(elsewhere .. '/plain.yaml')
  H.Eq(false, client.Running(), 'the daemon after opening plain.yaml')
  # A file under a .maskd.json still attaches, without rules of one's own.
  execute 'bwipeout! ' .. fnameescape(W .. '/sub/pay.env')
  EditFormatted('sub/pay.env', 1, 'CARD=4111 1111 1111 1111')
  H.Eq(true, client.Running(), 'the daemon runs')
enddef
H.Case('with no rules and no .maskd.json, opening a file starts no daemon', TestNoRules)

H.Run()
