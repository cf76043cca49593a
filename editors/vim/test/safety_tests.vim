vim9script
# Nothing the person typed is lost: undo after typing in a field, undo of an open, a field
# the cursor stands next to, a refused open, and the daemon dying under the fields.
#   MASKD=... vim -N -u NONE -i NONE -es -S test/safety_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/client.vim'
import autoload '../autoload/maskd/fields.vim'

# Returns the messages the plugin gave since the last call.
def Messages(): list<string>
  var got = filter(split(execute('messages'), "\n"), (_, l) => l =~ '^maskd')
  messages clear
  return got
enddef

def TestUndoAfterLabel()
  H.Buffer(['Tel: '])
  normal! $
  H.Command('MaskdField phone.us')
  H.Normal("a555\<Esc>")
  H.Eq('Tel: +1 (555', getline(1), 'typed')
  H.Normal('u')
  H.Expect('Tel: ', 4)
  # The daemon's copy is the buffer's: typing again formats from the empty field.
  H.Normal("a5\<Esc>")
  H.Eq('Tel: +1 (5', getline(1), 'typed again')
enddef
H.Case('u after typing into a field after a label gives back the line as it was', TestUndoAfterLabel)

H.Run()
