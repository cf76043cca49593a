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

    def __init__(self, tmp, path):
        self.tmp = tmp
        self.path = path
        self.screen = b''
        self.snaps = 0
        vimrc = os.path.join(tmp, 'vimrc')
        with open(vimrc, 'w', encoding='utf-8') as f:
            f.write('set nocompatible encoding=utf-8 backspace=indent,eol,start\n')
            f.write('set runtimepath^=%s\n' % PLUGIN.replace(' ', '\\ '))
            f.write('let g:maskd_cmd = [%r]\n' % MASKD)
            f.write('runtime plugin/maskd.vim\n')
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

    def command(self, cmd):
        self.keys(':' + cmd + '\r', 0.005)
        self.quiet()

    def snapshot(self):
        """Returns the buffer's lines, written once Vim is quiet."""
        self.quiet()
        self.snaps += 1
        path = os.path.join(self.tmp, 'snap%d.txt' % self.snaps)
        self.command('w! ' + path)
        end = time.time() + 5
        while not os.path.exists(path) and time.time() < end:
            self.read(0.05)
        with open(path, encoding='utf-8') as f:
            return f.read().split('\n')[:-1]

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


def main():
    if not shutil.which('vim'):
        out('skip  no vim')
        out('result: 0 passed, 0 failed, 1 skipped')
        return 0
    tmp = tempfile.mkdtemp(prefix='maskd-vim-')
    form = os.path.join(tmp, 'form.txt')
    with open(form, 'w', encoding='utf-8') as f:
        f.write('Tel: \n')
    vim = Vim(tmp, form)
    results = {'passed': 0, 'failed': 0}

    def check(name, want, got):
        if want == got:
            results['passed'] += 1
            out('ok    ' + name)
        else:
            results['failed'] += 1
            out('FAIL  %s: expected %r, got %r' % (name, want, got))

    try:
        # On the blank after "Tel:", a phone field; typed at a person's pace.
        vim.keys('$', 0.01)
        vim.command('MaskdField phone.us')
        vim.keys('A')
        vim.keys('555')
        vim.quiet()
        check('the placeholder shows after "+1 (555"', True, b') ___-____' in vim.screen)
        vim.keys('1234567')
        vim.keys('\x1b')
        check('US phone typed from empty', ['Tel: +1 (555) 123-4567'], vim.snapshot())
        # Backspace right after the dash deletes the digit before it; u brings it back.
        vim.keys('A')
        vim.keys('\x1b[D' * 4, 0.1)
        vim.keys('\x7f')
        vim.keys('\x1b')
        check('backspace right after a separator', ['Tel: +1 (555) 124-567'], vim.snapshot())
        vim.keys('u')
        check('u undoes the keystroke and its formatting', ['Tel: +1 (555) 123-4567'], vim.snapshot())
        # A card typed as fast as a terminal sends keys: answers come after later keys.
        vim.keys('oCard: \x1b', 0.01)
        vim.command('MaskdField card')
        vim.keys('A')
        vim.keys('41111111111111111234', 0.003)
        vim.keys('\x1b')
        check('card typed fast', ['Tel: +1 (555) 123-4567', 'Card: 4111 1111 1111 1111 123'], vim.snapshot())
        # A terminal paste (bracketed) into an empty field.
        vim.keys('oPaste: \x1b', 0.01)
        vim.command('MaskdField phone.us')
        vim.keys('A')
        vim.keys('\x1b[200~+1 (555) 123-4567 ext\x1b[201~', 0.002)
        vim.keys('\x1b')
        check('a bracketed paste with junk', 'Paste: +1 (555) 123-4567', vim.snapshot()[2])
        # Keys as fast as a terminal sends them, past the end of the number: each refused key
        # goes, though it arrives before the answer to the key before it.
        vim.keys('oFast: \x1b', 0.01)
        vim.command('MaskdField phone.us')
        vim.keys('A')
        vim.keys('5551234567 ext9', 0.003)
        vim.keys('\x1b')
        check('junk typed fast after a full phone', 'Fast: +1 (555) 123-4567', vim.snapshot()[3])
    finally:
        vim.close()
        shutil.rmtree(tmp, ignore_errors=True)
    out('result: %d passed, %d failed, 0 skipped' % (results['passed'], results['failed']))
    return 1 if results['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
