"""Where `burano serve` keeps its games across restarts: one SQLite file (`GameStore`), stdlib `sqlite3`.

Each game is a row of `games` (its id, who created it, its setup, its record's header and its seats' token
digests) and one row of `steps` per step of its record. A step is written, in one transaction with the
game's header, before the move that made it is answered (`LiveGame` saves under its lock), so a move
answered is a move kept: a commit in WAL mode has written its pages to the file's journal before it returns,
so a `kill -9` (or any crash) of the server loses nothing answered. The journal is not flushed to the disk
at every commit (`synchronous=NORMAL`): a crash of the whole machine or a power cut may lose the last
moments' moves, never the file's consistency; a flush per move (`FULL`) cost 2-8 ms a move here, serialised
over every game, for a failure the server cannot survive anyway. A restarted server reads the games' rows
only (`kept`: it listens at once, however many games it keeps) and replays a game's record (`load`,
`GameSession.resume`) at the game's first request; the game goes on where it stood: whose turn, the bots
thinking again, the seats' tokens still valid.

What the file holds is the umpire's, never a client's, and no more than the server held in memory:

- tokens are kept as their SHA-256 digests (a token is only ever compared, and a digest of 128 random bits
  cannot be turned back into it), so the file opens no seat;
- a game of secret chance keeps no secret: its record starts from the dealt position and says every draw,
  which is all a replay needs, and a restarted game draws a new secret (`GameSession.resume`), so what comes
  next is as unpredictable as before the restart. A seeded game keeps its seed, as its full record does.

One server at a time: the file is opened in SQLite's exclusive locking mode, so a second `burano serve` on
the same file is refused in one line (the operating system drops the lock when the holder dies, `kill -9`
included). A file that is not a store (another program's database, a damaged file) or a store written by
a newer burano is refused in one line before anything is written to it (`StoreError`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from burano_ai.core.errors import OptionError

#: `--store` value that keeps games in memory only (lost when the server stops).
IN_MEMORY = ":memory:"
#: `PRAGMA application_id` of a store ("BUrS"): tells a store from any other SQLite file.
APPLICATION_ID = 0x42557253
#: The store's layout version (`PRAGMA user_version`); a newer one is refused, never rewritten.
SCHEMA_VERSION = 1
#: Seconds SQLite waits for its lock: this process holds it alone (exclusive mode), so only a second server
#: (refused: "in use") or a passing reader such as a backup ever makes it wait.
BUSY_TIMEOUT = 0.5

_SCHEMA = """
CREATE TABLE games (
    id      TEXT PRIMARY KEY,   -- the game's unguessable id (in its URLs)
    client  TEXT NOT NULL,      -- who created it (limits.client_of): its share counts it
    setup   TEXT NOT NULL,      -- JSON: kind, players, seats, seeded (seed), options (LiveGame.setup)
    header  TEXT NOT NULL,      -- JSON: the record without its steps (burano-game/1), result included
    tokens  TEXT NOT NULL,      -- JSON: seat index -> SHA-256 hex digest of the seat's token
    touched REAL NOT NULL       -- wall-clock time of its last change (restored least recently used first)
);
CREATE TABLE steps (
    game TEXT NOT NULL,         -- games.id
    ply  INTEGER NOT NULL,      -- 0-based index in the record
    step TEXT NOT NULL,         -- JSON: the record's step (Step.to_dict)
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
"""


class StoreError(OptionError):
    """The store cannot be used: not a store, damaged, newer than this burano, in use, unwritable."""


class StoreWriteError(RuntimeError):
    """A write to the store failed (a full disk, a file gone): the change it carried is not kept (HTTP 503)."""


class StoreReadError(RuntimeError):
    """A kept game cannot be read back or replayed at its first request after a restart (HTTP 503); the store
    keeps it as it is."""


def token_digest(token: str) -> str:
    """What the store keeps of a seat's token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def default_store_path() -> Path:
    """`$XDG_STATE_HOME/burano/games.sqlite3` (`~/.local/state/burano/games.sqlite3` by default)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "burano" / "games.sqlite3"


@dataclass
class KeptGame:
    """One game's row without its steps: all a restarted server reads of a game before it listens
    (`GameStore.kept`); its steps are read when the game is first asked for (`GameStore.load`)."""

    id: str
    client: str
    setup: dict[str, Any]
    header: dict[str, Any]          # the record without its steps
    token_digests: dict[int, str]


@dataclass
class SavedGame:
    """One game as the store holds it (`GameStore.games`)."""

    id: str
    client: str
    setup: dict[str, Any]
    record: dict[str, Any]          # the full record (header and steps) as `GameRecord.from_dict` reads it
    token_digests: dict[int, str]


class GameStore:
    """The SQLite file of one server's games (thread-safe: one connection behind a lock).

    Args:
        path: the file (created with its directory when missing).

    Raises:
        StoreError: naming the file and what is wrong with it; nothing has been written then.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        where = f"--store {self.path}"
        if self.path.is_dir():
            raise StoreError(f"{where}: is a directory (give a file, e.g. {self.path / 'games.sqlite3'})")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None,
                                       check_same_thread=False)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{where}: cannot open it: {_reason(exc)}") from None
        try:
            self._check()
            self._db.execute("PRAGMA locking_mode=EXCLUSIVE")   # one server per file (the lock is taken below)
            if self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0].lower() != "wal":
                raise StoreError(f"{where}: cannot use SQLite's WAL journal there")
            self._db.execute("PRAGMA synchronous=NORMAL")   # see the module docstring
            with self._transaction():
                if self._db.execute("PRAGMA user_version").fetchone()[0] == 0:
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.OperationalError as exc:
            self._db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(f"{where}: in use by another burano serve (one server per store; give each "
                                 f"its own --store)") from None
            raise StoreError(f"{where}: cannot use it: {_reason(exc)}") from None
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"{where}: not a burano serve store or damaged ({_reason(exc)}); it was left as "
                             f"it is") from None
        except StoreError:
            self._db.close()
            raise

    def _check(self) -> None:
        """Refuse, reading only, a file that is not an empty database or a store this burano reads."""
        where = f"--store {self.path}"
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if app_id == 0 and version == 0 and not tables:
            return                      # a new file (or an empty database): it becomes a store
        if app_id != APPLICATION_ID:
            raise StoreError(f"{where}: not a burano serve store (another program's SQLite database); it was "
                             f"left as it is")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{where}: written by a newer burano (store version {version}; this one reads up "
                             f"to {SCHEMA_VERSION}); it was left as it is: upgrade burano or give another --store")
        if version < 1 or not {"games", "steps"} <= tables:
            raise StoreError(f"{where}: a damaged burano serve store (tables missing); it was left as it is")
        problem = self._db.execute("PRAGMA quick_check").fetchone()[0]
        if problem != "ok":
            raise StoreError(f"{where}: a damaged burano serve store ({problem}); it was left as it is")

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: committed when the block ends, rolled back if it raises."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.Error as exc:
            raise StoreWriteError(f"the server could not write to its store {self.path}: {_reason(exc)}") from None

    # -- reading ---------------------------------------------------------------------------------------
    def kept(self) -> list[KeptGame]:
        """Every kept game's row, least recently changed first (no step is read: a restart reads these only).

        Raises:
            StoreError: a row that cannot be read back (naming the game).
        """
        with self._lock:
            rows = self._db.execute("SELECT id, client, setup, header, tokens FROM games ORDER BY touched, id").fetchall()
        kept = []
        for game_id, client, setup, header, tokens in rows:
            try:
                game = KeptGame(game_id, client, json.loads(setup), json.loads(header),
                                {int(seat): str(digest) for seat, digest in json.loads(tokens).items()})
                if not isinstance(game.setup, dict) or not isinstance(game.header, dict):
                    raise TypeError("its setup and header must be JSON objects")
            except (ValueError, TypeError, AttributeError) as exc:
                raise StoreError(f"--store {self.path}: game {game_id[:8]}… cannot be read back ({exc}); the "
                                 f"store was left as it is") from None
            kept.append(game)
        return kept

    def load(self, game: KeptGame) -> SavedGame:
        """The kept game with its steps (its full record).

        Raises:
            StoreReadError: a step that cannot be read back (naming the game).
        """
        with self._lock:
            steps = [row[0] for row in self._db.execute("SELECT step FROM steps WHERE game = ? ORDER BY ply",
                                                        (game.id,))]
        try:
            record = dict(game.header, steps=[json.loads(s) for s in steps])
        except ValueError as exc:
            raise StoreReadError(f"game {game.id[:8]}… cannot be read back from the store {self.path} ({exc}); "
                                 f"the store keeps it as it is") from None
        return SavedGame(game.id, game.client, game.setup, record, game.token_digests)

    def games(self) -> Iterator[SavedGame]:
        """Every kept game with its steps, least recently changed first.

        Raises:
            StoreError: a row that cannot be read back; StoreReadError: a step (naming the game).
        """
        for game in self.kept():
            yield self.load(game)

    def count(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM games").fetchone()[0]

    # -- writing ---------------------------------------------------------------------------------------
    def save(self, game_id: str, client: str, setup: dict[str, Any], header: dict[str, Any] | None,
             token_digests: dict[int, str], steps: list[dict[str, Any]], keep: int, new: bool) -> bool:
        """Write a game in one transaction: its header (None: unchanged), its steps from `keep` on (the ones
        before are kept as they are; any stored past them are dropped: an undo cut them).

        `new`: the game is being created (its row is inserted); otherwise a game no longer in the store
        (forgotten meanwhile) is not written back, and False is returned.
        """
        with self._lock, self._writing(), self._transaction():
            if new:
                self._db.execute("INSERT INTO games (id, client, setup, header, tokens, touched) VALUES (?, ?, ?, ?, ?, ?)",
                                 (game_id, client, _json(setup), _json(header), _json(token_digests), time.time()))
            elif header is not None:
                if self._db.execute("UPDATE games SET header = ?, touched = ? WHERE id = ?",
                                    (_json(header), time.time(), game_id)).rowcount == 0:
                    return False
            elif self._db.execute("UPDATE games SET touched = ? WHERE id = ?", (time.time(), game_id)).rowcount == 0:
                return False
            self._db.execute("DELETE FROM steps WHERE game = ? AND ply >= ?", (game_id, keep))
            self._db.executemany("INSERT INTO steps (game, ply, step) VALUES (?, ?, ?)",
                                 [(game_id, keep + i, _json(step)) for i, step in enumerate(steps)])
        return True

    def forget(self, game_id: str) -> None:
        """Drop a game (the server forgot it)."""
        with self._lock, self._writing(), self._transaction():
            self._db.execute("DELETE FROM steps WHERE game = ?", (game_id,))
            self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def open_store(path: str | os.PathLike | None) -> GameStore | None:
    """The store at `path` (None: the default path), or None for `IN_MEMORY` (games in memory only)."""
    if path is not None and str(path) == IN_MEMORY:
        return None
    return GameStore(default_store_path() if path is None else path)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
