#!/usr/bin/env python3
"""pty_complete.py bash|zsh SCRIPT FOLDER DEADLINE_S LINE...: an interactive shell on a
pseudo-terminal in FOLDER loads the completion SCRIPT, then each LINE is typed (a tab where it
holds \\t) and the command line as the shell left it is printed, one a line. Ctrl-T is bound to
print the line between markers, so each result is waited for, never slept on. Gives up at
DEADLINE_S (the shell killed, exit 1)."""
import os, pty, re, select, shutil, signal, sys, tempfile, time

shell, script, folder, deadline_s = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
lines = sys.argv[5:]
deadline = time.monotonic() + deadline_s
home = tempfile.mkdtemp(prefix="pty-complete.")  # no user's rc file, history or compdump
if shell == "bash":
    argv = ["bash", "--norc", "--noprofile", "-i"]
    setup = ("source '%s'; bind 'set bell-style none'; "
             "bind -x '\"\\C-t\": printf \"\\n<<<%%s>>>\\n\" \"$READLINE_LINE\"'" % script)
else:
    os.makedirs(home + "/fpath")
    with open(script) as src, open(home + "/fpath/_smtbench", "w") as dst:
        dst.write(src.read())
    argv = ["zsh", "-f", "-i"]
    # compinit reads only what completing a file needs (the whole fpath takes seconds)
    setup = ("fpath=(%s/fpath ${(M)fpath:#*/Completion(|/Base|/Unix|/Zsh)}); autoload -Uz compinit; compinit -u -D; unsetopt beep; "
             "print-line() { print -r -- $'\\n<<<'$BUFFER'>>>' }; zle -N print-line; "
             "bindkey '^T' print-line" % home)
pid, fd = pty.fork()
if pid == 0:
    os.chdir(folder)
    os.environ.update(HOME=home, PS1="$ ", PROMPT="$ ", INPUTRC="/dev/null", TERM="dumb")
    os.execvp(argv[0], argv)

out = b""
def wait_for(pattern):
    global out
    while True:
        m = re.search(pattern, out, re.S)
        if m:
            out = out[m.end():]
            return m
        left = deadline - time.monotonic()
        if left <= 0:
            os.kill(pid, signal.SIGKILL)
            shutil.rmtree(home, ignore_errors=True)
            sys.exit("pty_complete.py: no answer from %s in %.0f s; it wrote: %r" % (shell, deadline_s, out[-400:]))
        if select.select([fd], [], [], left)[0]:
            try:
                out += os.read(fd, 65536)
            except OSError:
                pass

# The prompt is changed last and waited for: what is typed before the line editor reads the
# terminal would reach it cooked (a tab as a tab).
os.write(fd, (setup + "; PS1=$'<rea''dy> '\n").encode())
wait_for(rb"<ready> ")
for line in lines:
    os.write(fd, line.replace("\\t", "\t").encode() + b"\x14")
    m = wait_for(rb"<<<(.*?)>>>\r?\n")
    print(m.group(1).decode("utf-8", "replace"))
    os.write(fd, b"\x15")  # the line erased: nothing is run
os.write(fd, b"exit\n")
os.waitpid(pid, 0)
shutil.rmtree(home, ignore_errors=True)
