vim9script
# Generated editing of whole lines: seeded sequences of Normal-mode commands (dd, p, P, J, gJ, o,
# O, S, cc, >>, <<, Visual lines, :m, :t, :sort, u, CTRL-R, g-, g+, . and moves between lines) run
# on a form with typed fields and, in a second window, on the same text in a buffer maskd does not
# know. After every command both hold the same lines and the same cursor: maskd never changes
# what such a command made, and u and CTRL-R reach every state as in plain Vim.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/structure_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'

const COMMANDS = [
  'dd', '2dd', 'dj', 'dk', 'yyp', 'yyP', 'Yp', 'yjP', 'p', 'P', 'ddp', 'ddP', 'ddkP', 'J', 'gJ',
  "o\<Esc>", "O\<Esc>", "S\<Esc>", "cc\<Esc>", '>>', '<<', 'Vjd', 'Vjy', 'Vj>', 'VjJ',
  ":silent! m+1\<CR>", ":silent! m-2\<CR>", ":t.\<CR>", ":sort\<CR>", '.', 'u', 'u', 'u',
  "\<C-r>", "\<C-r>", 'g-', 'g+', 'j', 'k', 'gg', 'G',
]
const STEPS = 30

# Sends what the listener holds and waits until the daemon has handled it: its answer to a
# request comes after the didFormat of every change before it.
def Settle()
  client.Flush(bufnr('%'))
  fields.Fetch(bufnr('%'))
  H.Settle()
enddef

# Runs `keys` as typed; a command Vim refuses (nothing to put yet) is refused in both windows.
def Press(keys: string)
  try
    feedkeys(keys, 'xt')
  catch
  endtry
enddef

# The form: a phone and a card typed into their fields, and lines of prose around them.
def Form()
  H.Buffer(['Name: Bob', 'Tel: ', 'Card: ', 'Note: call after 5'])
  cursor(2, 5)
  H.Command('MaskdField phone.us')
  H.Normal("a2015550123\<Esc>")
  cursor(3, 6)
  H.Command('MaskdField card')
  H.Normal("a378282246310005\<Esc>")
  H.Eq(['Name: Bob', 'Tel: +1 (201) 555-0123', 'Card: 3782 822463 10005', 'Note: call after 5'],
    getline(1, '$'), 'the form')
enddef

# Starts the undo history of the current buffer here, as in a buffer just read.
def ForgetHistory()
  var levels = &l:undolevels
  &l:undolevels = -1
  execute "normal! 1G0a \<BS>\<Esc>"
  &l:undolevels = levels
enddef

def State(): dict<any>
  return {lines: getline(1, '$'), cursor: [line('.'), col('.')]}
enddef

def Generated(seed: number)
  var random = srand(seed)
  Form()
  ForgetHistory()
  Settle()
  var with = win_getid()
  var text = getline(1, '$')
  var cursor = [line('.'), col('.')]
  new
  setlocal buftype=nofile bufhidden=wipe noswapfile
  var without = win_getid()
  setline(1, text)
  ForgetHistory()
  cursor(cursor[0], cursor[1])
  var done: list<string> = []
  var resyncs = client.Resyncs()
  try
    for step in range(1, STEPS)
      var command = COMMANDS[rand(random) % len(COMMANDS)]
      add(done, strtrans(command))
      win_gotoid(with)
      Press(command)
      Settle()
      var got = State()
      var inSync = client.InSync(bufnr('%'))
      win_gotoid(without)
      Press(command)
      var want = State()
      var what = printf('seed %d, step %d (%s)', seed, step, join(done, ' '))
      H.Eq(want.lines, got.lines, 'lines after ' .. what)
      H.Eq(want.cursor, got.cursor, 'cursor after ' .. what)
      H.Eq(true, inSync, "the plugin's copy is the buffer after " .. what)
      H.Eq(resyncs, client.Resyncs(), 'buffers the plugin sent whole, after ' .. what)
    endfor
  finally
    win_gotoid(without)
    close!
  endtry
enddef

for seed in range(1, 8)
  H.Case(printf('seed %d: %d line commands keep the text and cursor plain Vim gives', seed, STEPS),
    function(Generated, [seed]))
endfor

H.Run()
