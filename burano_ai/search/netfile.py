"""Net files: a learned evaluation, versioned and checked, and the C net the native search runs.

A net file is one JSON object (docs/learning.md, "Net files"):

    {"format": "burano-net/1", "game": "azul-sintra", "players": 2, "encoder_version": 1,
     "num_features": 145, "score_scale": 20.0,
     "layers": [{"weights": [[...], ...], "bias": [...]}, ...],
     "digest": "<sha256 of the fields above>", "card": {how it was trained: data, loss, gate ...}}

`layers` are dense layers, first to last, with ReLU between them and linear outputs; a layer's
`weights` are its units' rows over its inputs. The outputs, for a net of n players, are in relative seats
(the encoded seat first, as the game's encoder orders them): n win shares, n score margins and n final
scores, margins and scores divided by `score_scale`. The digest covers everything but the card, so a
changed weight is caught; a file of another game, player count or encoder version is refused where it
would be used. Every problem is one `OptionError` line naming the file.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from burano_ai.core.errors import OptionError

FORMAT = "burano-net/1"
#: Largest net file read (a net for the leaves of a search is small: tens of kB).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: `Params.net` values besides a path: the net the game ships for the player count (an error where it
#: ships none), or that net where it ships one and the playout alone elsewhere (a game's default search).
BUILTIN = "builtin"
AUTO = "auto"


@dataclass(frozen=True)
class NetFile:
    """A checked net file's contents."""

    game: str
    players: int
    encoder_version: int
    num_features: int
    score_scale: float
    layers: tuple[tuple[tuple[tuple[float, ...], ...], tuple[float, ...]], ...]
    card: Mapping[str, Any] = field(default_factory=dict)
    path: str | None = None

    @property
    def digest(self) -> str:
        return net_digest(self.game, self.players, self.encoder_version, self.num_features, self.score_scale,
                          self.layers)

    @property
    def shape(self) -> list[int]:
        """Inputs, then the units of every layer."""
        return [self.num_features] + [len(w) for w, _ in self.layers]

    def forward(self, features: Sequence[float]) -> list[float]:
        """The outputs in readable Python (float64): the reference the C net is tested against."""
        x = [float(v) for v in features]
        for i, (w, b) in enumerate(self.layers):
            y = [bias + sum(wi * xi for wi, xi in zip(row, x)) for row, bias in zip(w, b)]
            x = y if i == len(self.layers) - 1 else [v if v > 0.0 else 0.0 for v in y]
        return x

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "players": self.players,
                "encoder_version": self.encoder_version, "num_features": self.num_features,
                "score_scale": self.score_scale,
                "layers": [{"weights": [list(r) for r in w], "bias": list(b)} for w, b in self.layers],
                "digest": self.digest, "card": dict(self.card)}


def _canonical_layers(layers) -> list:
    return [[[_f32(v) for v in row] for row in w] + [[_f32(v) for v in b]] for w, b in layers]


def _f32(v: float) -> float:
    """`v` as the float32 the C net holds, printed with 9 significant digits (exact for float32)."""
    return float(f"{float(v):.9g}")


def net_digest(game: str, players: int, encoder_version: int, num_features: int, score_scale: float,
               layers) -> str:
    body = json.dumps([game, players, encoder_version, num_features, _f32(score_scale), _canonical_layers(layers)],
                      separators=(",", ":"))
    return hashlib.sha256(body.encode("ascii")).hexdigest()


def make_net(game: str, players: int, encoder_version: int, num_features: int, score_scale: float,
             layers: Sequence[tuple[Sequence[Sequence[float]], Sequence[float]]],
             card: Mapping[str, Any] | None = None) -> NetFile:
    """A NetFile from weights (rounded to float32, as the C net holds them), checked like a read file."""
    frozen = tuple((tuple(tuple(_f32(v) for v in row) for row in w), tuple(_f32(v) for v in b)) for w, b in layers)
    net = NetFile(game, players, encoder_version, num_features, _f32(score_scale), frozen, dict(card or {}))
    _check_shape(net, "the net")
    return net


def write_net_file(net: NetFile, path: str | os.PathLike) -> None:
    """Write `net` as a net file (atomically: a reader never sees half a file)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(net.to_dict(), fh, separators=(",", ":"))
        fh.write("\n")
    os.replace(tmp, p)


def _check_shape(net: NetFile, where: str) -> None:
    if not net.layers:
        raise OptionError(f"{where}: no layers")
    inputs = net.num_features
    for i, (w, b) in enumerate(net.layers):
        if not w or len(w) != len(b) or any(len(row) != inputs for row in w):
            raise OptionError(f"{where}: layer {i} must have one bias per row and {inputs} weights in every row")
        if not all(math.isfinite(v) for row in w for v in row) or not all(math.isfinite(v) for v in b):
            raise OptionError(f"{where}: layer {i} holds a weight that is not a finite number")
        inputs = len(w)
    if inputs != 3 * net.players:
        raise OptionError(f"{where}: a {net.players}-player net has {3 * net.players} outputs, not {inputs}")


def read_net_file(path: str | os.PathLike) -> NetFile:
    """Read and check a net file.

    Raises:
        OptionError: unreadable, not a net file, a field missing or of the wrong type, a shape that does
            not add up, or a digest that does not match the weights (one line naming the file).
    """
    where = f"net file {os.fspath(path)}"
    try:
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise OptionError(f"{where}: {size} bytes, more than a net file may have ({MAX_FILE_BYTES})")
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OptionError:
        raise
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError(f"{where}: cannot be read ({exc.strerror if isinstance(exc, OSError) else exc})") from None
    except (json.JSONDecodeError, ValueError, RecursionError) as exc:
        raise OptionError(f"{where}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise OptionError(f"{where}: not a {FORMAT} file (its 'format' must be {FORMAT!r})")

    def get(name: str, kind: type | tuple) -> Any:
        value = data.get(name)
        if isinstance(value, bool) or not isinstance(value, kind):
            raise OptionError(f"{where}: '{name}' is missing or not a {getattr(kind, '__name__', 'number')}")
        return value

    game = get("game", str)
    players = get("players", int)
    encoder_version = get("encoder_version", int)
    num_features = get("num_features", int)
    score_scale = float(get("score_scale", (int, float)))
    if not 1 <= players <= 6 or encoder_version < 1 or not 1 <= num_features <= 1024 or not score_scale > 0:
        raise OptionError(f"{where}: players, encoder_version, num_features or score_scale out of range")
    raw = get("layers", list)
    layers = []
    for i, layer in enumerate(raw):
        if not isinstance(layer, dict) or not isinstance(layer.get("weights"), list) \
                or not isinstance(layer.get("bias"), list):
            raise OptionError(f"{where}: layer {i} must be an object with 'weights' (rows) and 'bias'")
        try:
            w = tuple(tuple(_number(v) for v in row) for row in layer["weights"])
            b = tuple(_number(v) for v in layer["bias"])
        except (TypeError, ValueError):
            raise OptionError(f"{where}: layer {i} holds something that is not a number") from None
        layers.append((w, b))
    card = data.get("card") or {}
    if not isinstance(card, dict):
        raise OptionError(f"{where}: 'card' must be an object")
    net = NetFile(game, players, encoder_version, num_features, score_scale, tuple(layers), card, os.fspath(path))
    _check_shape(net, where)
    digest = data.get("digest")
    if digest != net.digest:
        raise OptionError(f"{where}: its digest does not match its weights (a changed or damaged file)")
    return net


def _number(v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(v)
    return float(v)


_cache: dict[tuple, Any] = {}
_cache_lock = threading.Lock()


def resolve_net_path(game: str, players: int, net: str) -> str | None:
    """The file `net` names for `game` at `players`: a path, or the game's shipped net for "builtin" and
    "auto" (None for "auto" where the game ships none: the playout alone).

    Raises:
        OptionError: "builtin" where the game ships no net for that player count.
    """
    if net in (BUILTIN, AUTO):
        from burano_ai.games import builtin_net
        path = builtin_net(game, players) if game else None
        if path is None and net == AUTO:
            return None
        if path is None:
            raise OptionError(f"{game} ships no learned evaluation for {players} players (use a net file, or "
                              f"--eval playout)")
        return path
    return net


def eval_to_net(value: str) -> str | None:
    """`Params.net` for an evaluation choice (``--eval``, a bot's ``eval=``, the engine's "eval"): playout ->
    None, net -> the game's shipped net, else a net file, read and checked now (a bad file is one line
    before any search starts)."""
    if value == "playout":
        return None
    if value == "net":
        return BUILTIN
    load_net(value)
    return value


def load_net(path: str) -> NetFile:
    """`read_net_file` with a cache keyed by the file's path, size and modification time."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise OptionError(f"net file {path}: cannot be read ({exc.strerror})") from None
    key = ("file", os.path.abspath(path), st.st_size, st.st_mtime_ns)
    with _cache_lock:
        hit = _cache.get(key)
    if hit is None:
        hit = read_net_file(path)
        with _cache_lock:
            _cache[key] = hit
    return hit


def check_net_for(net: NetFile, game: str | None, players: int, encoder_version: int, num_features: int) -> None:
    """Raise OptionError unless `net` was made for this game, player count and encoder."""
    where = f"net file {net.path}" if net.path else "the net"
    if game is not None and net.game != game:
        raise OptionError(f"{where} is a net for {net.game}, not {game}")
    if net.players != players:
        raise OptionError(f"{where} is a net for {net.players} players, not {players}")
    if encoder_version == 0:
        raise OptionError(f"{game or 'this game'} has no encoder: it cannot use a learned evaluation")
    if net.encoder_version != encoder_version or net.num_features != num_features:
        raise OptionError(f"{where} was trained on encoder version {net.encoder_version} ({net.num_features} "
                          f"features); this build encodes version {encoder_version} ({num_features} features)")


def net_for(root: Any, net: str):
    """The C net (`burano_ai.search._native.NetEval`) for a search from `root` (a NativeState) with
    `Params.net` = `net`, checked against the root's game, player count and encoder; None for "auto"
    where the game ships no net for the player count."""
    from burano_ai.games import implementation_of
    from burano_ai.search._native import NetEval
    found = implementation_of(root.game)        # the registry names the game (Burano's C core names none)
    game = found[0].key if found is not None else root.game_name
    players = root.num_players
    path = resolve_net_path(game, players, net)
    if path is None:
        return None
    data = load_net(path)
    check_net_for(data, game, players, root.encoder_version, root.num_features)
    key = ("c", data.digest, path)
    with _cache_lock:
        hit = _cache.get(key)
    if hit is None:
        hit = NetEval([(list(map(list, w)), list(b)) for w, b in data.layers], data.players, data.score_scale,
                      info={"game": data.game, "players": data.players, "digest": data.digest, "path": path})
        with _cache_lock:
            _cache[key] = hit
    return hit
