"""The durable read queue: photos wait in PostgreSQL for `spinner reader-worker`s (SPINNER_READERS=queue).

- `jobs`: the queue itself, a table (`read_jobs`) and its statements: submit (the table's older
  waiting frame is skipped), claim (`FOR UPDATE SKIP LOCKED`, one frame of a table at a time),
  finish, and reap (a dead worker's frame goes back to the queue).
- `web`: the web process's side: a frame is queued, and its request woken by the worker's answer.
- `worker`: the worker's loop, and `command`: `spinner reader-worker`.

A worker holds a lease while it lives: a PostgreSQL advisory lock on a random key, taken on a
connection it keeps open. A frame it claims is marked with that key; when the worker dies, its
connection closes, the lock goes, and the next claim by any worker puts the frame back (or skips
it, where a newer frame of its table came meanwhile). No clock decides that a worker is dead.

Where the web processes read for themselves (the default, `webapp.frames.Queue`), none of this runs.
"""
