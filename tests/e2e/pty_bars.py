#!/usr/bin/env python3
"""pty_bars.py COLS RESIZE_TO DEADLINE_S -- COMMAND...: runs COMMAND on a pseudo-terminal of COLS
columns; once it has drawn 3 progress bars ("\\r\\e[K" then the text), resizes the terminal to
RESIZE_TO columns (0: never), which sends it SIGWINCH. Prints one JSON object: the exit status,
every bar's text, and the index of the first bar whose drawing began after the resize. Gives up
at DEADLINE_S (the command killed, "timed_out": true)."""
import fcntl, json, os, pty, select, signal, struct, sys, termios, time

cols, resize_to, deadline_s = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
argv = sys.argv[sys.argv.index("--") + 1:]

def set_size(fd, columns):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))

pid, fd = pty.fork()
if pid == 0:
    set_size(0, cols)
    os.execvp(argv[0], argv)
set_size(fd, cols)
out = b""
resized_at = None  # bytes of output read when the terminal was resized
deadline = time.monotonic() + deadline_s
timed_out = False
while True:
    left = deadline - time.monotonic()
    if left <= 0:
        timed_out = True
        os.kill(pid, signal.SIGKILL)
        break
    r, _, _ = select.select([fd], [], [], left)
    if not r:
        continue
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the other side closed
        break
    if not chunk:
        break
    out += chunk
    if resize_to and resized_at is None and out.count(b"\r\x1b[K") >= 3:
        set_size(fd, resize_to)
        resized_at = len(out)
_, status = os.waitpid(pid, 0)
bars, first_after = [], None
pos = 0
while True:
    i = out.find(b"\r\x1b[K", pos)
    if i < 0:
        break
    j = i + 4
    end = min([k for k in (out.find(b"\r", j), out.find(b"\n", j)) if k >= 0] or [len(out)])
    pos = j
    if out[end:end + 1] == b"\n" or out[end:end + 2] == b"\r\n":
        continue  # a message, which clears the bar first and ends its own line (\r\n: onlcr)
    if resized_at is not None and first_after is None and i >= resized_at:
        first_after = len(bars)
    text = out[j:end].decode("utf-8", "replace")
    if text:
        bars.append(text)
print(json.dumps({"status": os.waitstatus_to_exitcode(status), "timed_out": timed_out,
                  "bars": bars, "first_after_resize": first_after}))
