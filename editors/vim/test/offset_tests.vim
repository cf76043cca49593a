vim9script
# The hand-written UTF-16 conversions and the change narrowing, without a daemon.
#   vim -N -u NONE -i NONE -es -S test/offset_tests.vim </dev/null

import './helpers.vim' as H
import autoload '../autoload/maskd/offset.vim'
import autoload '../autoload/maskd/client.vim'

def TestUtf16Len()
  H.Eq(0, offset.Utf16Len(''), "''")
  H.Eq(3, offset.Utf16Len('abc'), 'abc')
  # A code point above U+FFFF is a surrogate pair.
  H.Eq(3, offset.Utf16Len('😀b'), '😀b')
  H.Eq(2, offset.Utf16Len('名前'), '名前')
  # A composing character is a code unit of its own.
  H.Eq(2, offset.Utf16Len("e\u0301"), 'e + U+0301')
  H.Eq(4, offset.Utf16Len('🇫🇷'), 'a flag')
enddef
H.Case('Utf16Len counts code units', TestUtf16Len)

def TestUtf16Col()
  var line = '😀b名x'
  H.Eq(0, offset.Utf16Col(line, 0), 'byte 0')
  # Bytes inside a character count as its start.
  H.Eq(0, offset.Utf16Col(line, 2), 'byte 2, inside the emoji')
  H.Eq(2, offset.Utf16Col(line, 4), 'byte 4')
  H.Eq(3, offset.Utf16Col(line, 5), 'byte 5')
  H.Eq(3, offset.Utf16Col(line, 6), 'byte 6, inside 名')
  H.Eq(4, offset.Utf16Col(line, 8), 'byte 8')
  H.Eq(5, offset.Utf16Col(line, 9), 'the end')
  H.Eq(5, offset.Utf16Col(line, 99), 'past the end')
enddef
H.Case('Utf16Col converts byte columns', TestUtf16Col)

def TestByteCol()
  var line = '😀b名x'
  H.Eq(0, offset.ByteCol(line, 0), 'offset 0')
  # An offset inside a surrogate pair moves to the code point's start.
  H.Eq(0, offset.ByteCol(line, 1), 'offset 1, inside the pair')
  H.Eq(4, offset.ByteCol(line, 2), 'offset 2')
  H.Eq(5, offset.ByteCol(line, 3), 'offset 3')
  H.Eq(8, offset.ByteCol(line, 4), 'offset 4')
  H.Eq(9, offset.ByteCol(line, 5), 'the end')
  H.Eq(9, offset.ByteCol(line, 42), 'past the end')
  H.Eq(8, offset.ByteCol('名前: +1', 4), 'after 名前: ')
  H.Eq(3, offset.ByteCol("e\u0301x", 2), 'after a composing character')
enddef
H.Case('ByteCol converts UTF-16 offsets', TestByteCol)

def TestRoundTrip()
  for line in ['', 'plain', '名前: +1 (555) 123-4567😀', "a\u0301👍🏽🇩🇪z"]
    for i in range(offset.Utf16Len(line) + 1)
      var byte = offset.ByteCol(line, i)
      var back = offset.Utf16Col(line, byte)
      # Only the second half of a surrogate pair does not come back.
      if back != i && back != i - 1
        H.Fail(printf('%s: offset %d -> byte %d -> offset %d', string(line), i, byte, back))
      endif
    endfor
  endfor
enddef
H.Case('offsets survive a round trip', TestRoundTrip)

def TestDiff()
  # [start, old end, new end] in bytes.
  H.Eq([3, 3, 4], client.Diff("555\n", "5555\n", -1), 'an append, no cursor')
  # "5" typed at the start of "5": the cursor (after it) says where.
  H.Eq([0, 0, 1], client.Diff("5\n", "55\n", 1), 'typed before an equal character')
  H.Eq([1, 1, 2], client.Diff("5\n", "55\n", 2), 'typed after an equal character')
  # Backspace over the first of two equal characters: the cursor is at the deletion.
  H.Eq([0, 1, 0], client.Diff("55\n", "5\n", 0), 'backspace over the first 5')
  H.Eq([1, 2, 1], client.Diff("55\n", "5\n", 1), 'backspace over the second 5')
  H.Eq([1, 2, 1], client.Diff("5055", "555", 1), 'backspace over the 0')
  H.Eq([3, 3, 3], client.Diff('abc', 'abc', -1), 'no change')
  # `p` of `ard: ` after the blank in `29 C`, the cursor on the put blank: where Vim says the change
  # starts goes before the cursor.
  H.Eq([2, 2, 7], client.Diff('29 C', '29 ard: C', 7), 'put: the cursor alone')
  H.Eq([3, 3, 8], client.Diff('29 C', '29 ard: C', 7, 3), 'put: where it starts')
  H.Eq([2, 2, 7], client.Diff('29 C', '29 ard: C', 7, 5), 'a start past the common prefix is not taken')
  # Two characters sharing a first byte: the change never splits them.
  H.Eq([0, 2, 2], client.Diff('é', 'ã', -1), 'é to ã')
  H.Eq([1, 5, 5], client.Diff('a😀b', 'a😁b', -1), 'one emoji for another')
  H.Eq([3, 3, 5], client.Diff("ab\ncd\n", "ab\nX\ncd\n", -1), 'a line inserted')
enddef
H.Case('Diff narrows a change to the bytes that differ', TestDiff)

H.Run()
