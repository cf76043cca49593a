#!/usr/bin/env python3
"""The plugin in an interactive Vim, driven through a pseudo-terminal.

The *_tests.vim files run Vim with -es and synchronise with the daemon between keystrokes
themselves.  This file checks the path a person takes instead: keys arrive one by one from a
terminal, the plugin sends each change from its TextChangedI autocmd and applies the
daemon's answer whenever it comes, while Vim waits for the next key.  A snapshot is the
buffer written with :w once Vim has gone quiet.

Run: MASKD=/path/to/maskd python3 test/terminal_tests.py  (test/run.sh does).
Writes "ok"/"FAIL" lines and "result: N passed, N failed, N skipped" to $MASKD_TEST_LOG
(or stdout) and exits non-zero on a failure.
"""
import json
import os
import pty
import select
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PLUGIN = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PLUGIN))
MASKD = os.environ.get('MASKD') or os.path.join(ROOT, '.build', 'debug', 'maskd')
LOG = os.environ.get('MASKD_TEST_LOG')

lines = []


def out(line):
    lines.append(line)
    if LOG:
        with open(LOG, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')
    else:
        print(line, flush=True)


class Vim:
    """One Vim in a pseudo-terminal, editing `path`."""

    def __init__(self, tmp, path, cmd):
        self.tmp = tmp
        self.path = path
        self.screen = b''
        self.snaps = 0
        vimrc = os.path.join(tmp, 'vimrc')
        with open(vimrc, 'w', encoding='utf-8') as f:
            f.write('set nocompatible encoding=utf-8 backspace=indent,eol,start\n')
            f.write('set runtimepath^=%s\n' % PLUGIN.replace(' ', '\\ '))
            f.write('let g:maskd_cmd = %s\n' % json.dumps(cmd))
            f.write('runtime plugin/maskd.vim\n')
            # Screen row a:row as shown (virtual text included), and the buffer, written to a:path: short commands,
            # as a long one would wrap the command line and scroll the screen it reads.  Each is written beside
            # a:path and renamed to it, so the test never reads a file Vim has created but not yet filled.
            f.write("function Row(row, path)\n"
                    "  call writefile([join(map(range(1, &columns), 'screenstring(a:row, v:val)'), '')],"
                    " a:path .. '.part')\n"
                    "  call rename(a:path .. '.part', a:path)\n"
                    "endfunction\n"
                    "function Snap(path)\n"
                    "  execute 'silent write! ' .. fnameescape(a:path .. '.part')\n"
                    "  call rename(a:path .. '.part', a:path)\n"
                    "endfunction\n")
            if os.environ.get('MASKD_TRACE'):
                # Every message to and from the daemon, for a failure's diagnosis.
                f.write('let g:maskd_trace = %r\n' % os.environ['MASKD_TRACE'])
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ['TERM'] = 'xterm'
            os.execvp('vim', ['vim', '-N', '-u', vimrc, '-i', 'NONE', '-n', path])
        self.quiet()

    def read(self, seconds):
        end = time.time() + seconds
        got = False
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.01)
            if r:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return got
                self.screen += data
                got = True
        return got

    def quiet(self, gap=0.25, limit=10.0):
        """Waits until Vim has drawn nothing for `gap` seconds."""
        end = time.time() + limit
        while time.time() < end and self.read(gap):
            pass

    def keys(self, text, delay=0.05):
        """Sends `text` one character at a time, `delay` seconds apart."""
        for ch in text:
            os.write(self.fd, ch.encode('utf-8'))
            self.read(delay)

    def until(self, done, limit=5.0):
        """Reads what Vim draws until `done()` holds or `limit` seconds have passed; returns `done()`."""
        end = time.time() + limit
        while time.time() < end:
            if done():
                return True
            self.read(0.05)
        return done()

    def wait_for(self, text, since, limit=5.0):
        """Waits until `text` (bytes) is drawn after screen offset `since`; returns whether it was."""
        return self.until(lambda: text in self.screen[since:], limit)

    def command(self, cmd):
        self.keys(':' + cmd + '\r', 0.005)
        self.quiet()

    def screen_row(self, row, insert=False):
        """Returns screen row `row` as Vim shows it (virtual text included), read with
        screenstring(); from Insert mode through CTRL-O, which comes back to it."""
        return self.written('screen', lambda path: self.keys(
            ('\x0f:' if insert else ':') + "call Row(%d, '%s')\r" % (row, path), 0.005)).rstrip()

    def settled(self, want, pick=lambda lines: lines, limit=5.0, reading=None):
        """Returns the buffer's lines (through `pick`) once they equal `want`, else as they are
        `limit` seconds on.  The daemon's answers come when they come: on a loaded machine
        they may come after Vim went quiet, and what counts is the text they leave.  `reading`
        reads something else than the buffer's lines (a screen row)."""
        end = time.time() + limit
        while True:
            got = pick(reading() if reading else self.snapshot())
            if got == want or time.time() >= end:
                return got
            self.read(0.2)

    def snapshot(self):
        """Returns the buffer's lines, written once Vim is quiet."""
        return self.written('snap', lambda path: self.command("call Snap('%s')" % path)).split('\n')[:-1]

    def written(self, name, write):
        """Once Vim is quiet, has `write(path)` make Vim write a new file `path` (in the test's
        folder, named after `name`; written whole, then renamed to `path`) and returns its text."""
        self.quiet()
        self.snaps += 1
        path = os.path.join(self.tmp, '%s%d.txt' % (name, self.snaps))
        write(path)
        if not self.until(lambda: os.path.exists(path)):
            raise RuntimeError('Vim did not write %s; the screen ended with %r' % (path, self.screen[-600:]))
        with open(path, encoding='utf-8') as f:
            return f.read()

    def close(self):
        try:
            self.keys('\x1b:qa!\r', 0.005)
            end = time.time() + 5
            while time.time() < end:
                pid, _ = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    return
                self.read(0.05)
            os.kill(self.pid, 9)
        except OSError:
            pass


def scenario(name, cmd, check):
    """The keystrokes of a person filling in a form, against the daemon `cmd`; checks named `name: ...`."""
    tmp = tempfile.mkdtemp(prefix='maskd-vim-')
    form = os.path.join(tmp, 'form.txt')
    with open(form, 'w', encoding='utf-8') as f:
        f.write('Tel: \n')
    vim = Vim(tmp, form, cmd)

    def open_field(preset):
        """:MaskdField over the blank at the end of the line: the field opens empty, and the
        plugin starts Insert mode in it by itself (when the daemon's answer comes)."""
        vim.quiet()
        mark = len(vim.screen)
        vim.command('MaskdField ' + preset)
        check('%s: :MaskdField %s starts Insert mode in the empty field' % (name, preset), True,
              vim.wait_for(b'-- INSERT --', mark))

    try:
        # On the blank after "Tel:", a phone field; typed at a person's pace.
        vim.keys('$', 0.01)
        open_field('phone.us')
        vim.keys('555')
        want = 'Tel: +1 (555) ___-____'
        check(name + ': the placeholder shows after "+1 (555"', want,
              vim.settled(want, reading=lambda: vim.screen_row(1, insert=True)))
        vim.keys('1234567')
        vim.keys('\x1b')
        want = ['Tel: +1 (555) 123-4567']
        check(name + ': US phone typed from empty', want, vim.settled(want))
        # Backspace right after the dash deletes the digit before it; u brings it back.
        vim.keys('A')
        vim.keys('\x1b[D' * 4, 0.1)
        vim.keys('\x7f')
        vim.keys('\x1b')
        want = ['Tel: +1 (555) 124-567']
        check(name + ': backspace right after a separator', want, vim.settled(want))
        vim.keys('u')
        want = ['Tel: +1 (555) 123-4567']
        check(name + ': u undoes the keystroke and its formatting', want, vim.settled(want))
        # A card typed as fast as a terminal sends keys: answers come after later keys.
        vim.keys('oCard: \x1b', 0.01)
        open_field('card')
        vim.keys('41111111111111111234', 0.003)
        vim.keys('\x1b')
        want = ['Tel: +1 (555) 123-4567', 'Card: 4111 1111 1111 1111 123']
        check(name + ': card typed fast', want, vim.settled(want))
        # A terminal paste (bracketed) into an empty field.
        vim.keys('oPaste: \x1b', 0.01)
        open_field('phone.us')
        vim.keys('\x1b[200~+1 (555) 123-4567 ext\x1b[201~', 0.002)
        vim.keys('\x1b')
        want = 'Paste: +1 (555) 123-4567'
        check(name + ': a bracketed paste with junk', want, vim.settled(want, lambda lines: lines[2]))
        # Keys as fast as a terminal sends them, past the end of the number: each refused key
        # goes, though it arrives before the answer to the key before it.
        vim.keys('oFast: \x1b', 0.01)
        open_field('phone.us')
        vim.keys('5551234567 ext9', 0.003)
        vim.keys('\x1b')
        want = 'Fast: +1 (555) 123-4567'
        check(name + ': junk typed fast after a full phone', want, vim.settled(want, lambda lines: lines[3]))
    finally:
        vim.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    if not shutil.which('vim'):
        out('skip  no vim')
        out('result: 0 passed, 0 failed, 1 skipped')
        return 0
    results = {'passed': 0, 'failed': 0}

    def check(name, want, got):
        if want == got:
            results['passed'] += 1
            out('ok    ' + name)
        else:
            results['failed'] += 1
            out('FAIL  %s: expected %r, got %r' % (name, want, got))

    scenario('direct', [MASKD], check)
    # A loaded machine (CI runs every suite at once): each answer comes 400 ms late, after the
    # plugin stopped waiting for it (g:maskd_format_timeout, 200 ms), so answers come after
    # later keys and after later commands.  What counts is the text they leave.
    scenario('answers 400 ms late', [sys.executable, os.path.join(HERE, 'slow_daemon.py'), '0.4', MASKD], check)
    out('result: %d passed, %d failed, 0 skipped' % (results['passed'], results['failed']))
    return 1 if results['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
