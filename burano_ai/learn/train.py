"""Training a value net on CPU with scikit-learn (the optional extra ``burano-ai[learn]``).

`train_net` fits a `Dataset` (burano_ai.learn.dataset) with scikit-learn: ``model="mlp"`` an
`MLPRegressor` (ReLU hidden layers, linear outputs, Adam, early stopping on a validation share of the
training games), ``model="linear"`` a `Ridge` regression (a net of one layer). Inputs are standardised
for the fit and the standardisation is folded into the first layer, so the net file holds plain weights
over the encoder's raw features. Games, not positions, are split between training and held out
(``holdout``): the held-out check reports the loss of the net and of the no-knowledge baseline (every
seat 1/n, the mean margin and score), and how often the net's favourite seat won.

scikit-learn was chosen with the install in mind: a ~10 MB wheel (with SciPy, which the test extras
have already) against PyTorch's ~200 MB CPU wheel or several GB of CUDA libraries by default; for nets
of a few thousand weights evaluated in C, its MLP is enough. Everything is seeded: the same data,
options and seed give the same net.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from burano_ai.core.errors import OptionError
from burano_ai.learn.dataset import Dataset
from burano_ai.search.netfile import NetFile, make_net

MODELS = ("mlp", "linear")


@dataclass
class TrainReport:
    """What a training run measured (it goes into the net's model card)."""

    examples: int
    train_examples: int
    holdout_examples: int
    games: int
    holdout_games: int
    seconds: float
    loss_curve: list[float] = field(default_factory=list)
    validation_curve: list[float] = field(default_factory=list)
    holdout: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def _sklearn():
    try:
        import sklearn  # noqa: F401
        from sklearn.linear_model import Ridge
        from sklearn.neural_network import MLPRegressor
    except ImportError as exc:
        raise OptionError(f"training needs scikit-learn: pip install 'burano-ai[learn]' ({exc})") from None
    return MLPRegressor, Ridge


def split_games(groups: np.ndarray, holdout: float, seed: int) -> np.ndarray:
    """A boolean mask of the held-out examples: whole games, about `holdout` of them."""
    games = np.unique(groups)
    rng = np.random.default_rng(seed)
    count = int(round(len(games) * holdout))
    if holdout > 0 and len(games) > 1:
        count = min(max(count, 1), len(games) - 1)
    held = rng.choice(games, size=count, replace=False) if count else np.array([], dtype=groups.dtype)
    return np.isin(groups, held)


def holdout_report(predict, x: np.ndarray, y: np.ndarray, players: int) -> dict[str, float]:
    """Losses on held-out examples: the net's and the no-knowledge baseline's, per target group."""
    if len(x) == 0:
        return {}
    pred = predict(x)
    n = players
    out: dict[str, float] = {}
    for name, lo in (("share", 0), ("margin", n), ("score", 2 * n)):
        t = y[:, lo:lo + n]
        p = pred[:, lo:lo + n]
        base = np.full_like(t, 1.0 / n) if name == "share" else np.broadcast_to(t.mean(axis=0), t.shape)
        out[f"{name}_mse"] = float(np.mean((p - t) ** 2))
        out[f"{name}_mse_baseline"] = float(np.mean((base - t) ** 2))
    # How often the seat the net rates best was among the most successful seats by the target shares.
    best_pred = np.argmax(pred[:, :n], axis=1)
    best_true = y[np.arange(len(y)), best_pred] >= y[:, :n].max(axis=1) - 1e-9
    out["favourite_right"] = float(np.mean(best_true))
    return out


def _fold(mean: np.ndarray, scale: np.ndarray, w: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weights over raw inputs of a layer trained on (x - mean) / scale: w / scale and b - w @ (mean / scale)."""
    w2 = w / scale[None, :]
    return w2, b - w2 @ mean


def layers_from_sklearn(reg, mean: np.ndarray, scale: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The dense layers (weights as rows of units, biases) of a fitted `Ridge` or `MLPRegressor` (ReLU)
    trained on ``(x - mean) / scale``, the standardisation folded into the first layer: the net over raw
    features computes ``reg.predict((x - mean) / scale)``."""
    if hasattr(reg, "coefs_"):
        coefs = [np.asarray(c, dtype=np.float64).T for c in reg.coefs_]          # sklearn: (in, out)
        inter = [np.asarray(c, dtype=np.float64) for c in reg.intercepts_]
    else:
        coefs = [np.atleast_2d(np.asarray(reg.coef_, dtype=np.float64))]
        inter = [np.atleast_1d(np.asarray(reg.intercept_, dtype=np.float64))]
    w0, b0 = _fold(np.asarray(mean, dtype=np.float64), np.asarray(scale, dtype=np.float64), coefs[0], inter[0])
    return [(w0, b0)] + list(zip(coefs[1:], inter[1:]))


def train_net(data: Dataset, model: str = "mlp", hidden: tuple[int, ...] = (64,), epochs: int = 40,
              holdout: float = 0.1, seed: int = 0, alpha: float = 1e-4, batch: int = 256,
              learning_rate: float = 1e-3, card: dict[str, Any] | None = None) -> tuple[NetFile, TrainReport]:
    """Fit a net to `data`; return it (its card filled in) and the training report.

    Raises:
        OptionError: an unknown model, a bad option, too few examples, or scikit-learn missing.
    """
    if model not in MODELS:
        raise OptionError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
    if not 0.0 <= holdout < 1.0:
        raise OptionError(f"holdout must lie in [0, 1), not {holdout}")
    if epochs < 1 or any(h < 1 or h > 1024 for h in hidden) or len(hidden) > 6:
        raise OptionError("epochs must be at least 1 and hidden 1..6 layers of 1..1024 units")
    if len(data) < 20:
        raise OptionError(f"{len(data)} examples are too few to train a net")
    MLPRegressor, Ridge = _sklearn()
    start = time.perf_counter()
    held = split_games(data.groups, holdout, seed)
    x_train, y_train = data.x[~held], data.y[~held]
    x_hold, y_hold = data.x[held], data.y[held]
    mean = x_train.mean(axis=0).astype(np.float64)
    scale = x_train.std(axis=0).astype(np.float64)
    scale[scale < 1e-6] = 1.0
    z = (x_train - mean) / scale
    report = TrainReport(len(data), len(x_train), len(x_hold), data.games,
                         int(len(np.unique(data.groups[held]))), 0.0)
    if model == "linear":
        reg = Ridge(alpha=max(alpha, 1e-6) * len(z), random_state=seed)
        reg.fit(z, y_train)
        layers = layers_from_sklearn(reg, mean, scale)
    else:
        early = len(np.unique(data.groups[~held])) >= 10
        reg = MLPRegressor(hidden_layer_sizes=tuple(hidden), activation="relu", solver="adam", alpha=alpha,
                           batch_size=min(batch, len(z)), learning_rate_init=learning_rate, max_iter=epochs,
                           early_stopping=early, validation_fraction=0.1, n_iter_no_change=6,
                           random_state=seed, shuffle=True)
        import warnings
        from sklearn.exceptions import ConvergenceWarning
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            reg.fit(z, y_train)
        layers = layers_from_sklearn(reg, mean, scale)
        report.loss_curve = [float(v) for v in reg.loss_curve_]
        if getattr(reg, "validation_scores_", None) is not None:
            report.validation_curve = [float(v) for v in reg.validation_scores_]
    net = make_net(data.game, data.players, data.encoder_version, int(data.x.shape[1]), data.score_scale,
                   [(w.tolist(), b.tolist()) for w, b in layers])
    report.holdout = holdout_report(lambda x: numpy_forward(net, x), x_hold, y_hold, data.players)
    report.seconds = round(time.perf_counter() - start, 3)
    full_card = dict(card or {})
    full_card.update({"model": model, "hidden": list(hidden) if model == "mlp" else [], "epochs": epochs,
                      "alpha": alpha, "seed": seed, "training": report.to_dict()})
    net = make_net(net.game, net.players, net.encoder_version, net.num_features, net.score_scale,
                   [(list(map(list, w)), list(b)) for w, b in net.layers], card=full_card)
    return net, report


def numpy_forward(net: NetFile, x: np.ndarray) -> np.ndarray:
    """The net on many inputs at once (float64; the same function as `NetFile.forward`)."""
    h = np.asarray(x, dtype=np.float64)
    for i, (w, b) in enumerate(net.layers):
        h = h @ np.asarray(w, dtype=np.float64).T + np.asarray(b, dtype=np.float64)
        if i < len(net.layers) - 1:
            h = np.maximum(h, 0.0)
    return h

