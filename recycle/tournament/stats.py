"""The arithmetic of confidence: intervals, clustered means, the SPRT.

Rounds are not independent: rounds of one match share the rank/exchange
dynamics, and the rotations of one duplicate deal share the cards. The
independent unit is the deal, so every interval here is computed from
per-deal (cluster) totals:

- a mean (finishing place, points per round) is the ratio estimator
  r = sum(y_c) / sum(m_c) over clusters c (y_c the deal's total, m_c its
  rounds), with the cluster-robust variance
  Var(r) = k/(k-1) * sum((y_c - r*m_c)^2) / (sum m_c)^2, and the interval is
  r +- t(0.975, k-1) * sqrt(Var(r)). With equal cluster sizes this is exactly
  the t interval on per-deal means.
- a rate (President, Loser, A above B) uses the Wilson score interval with the
  effective sample size n_eff = r(1-r) / Var(r) (Kish's design effect), so it
  keeps Wilson's good behaviour near 0 and 1 while being honest about the
  correlation, and the same t quantile as critical value.

Var(r) is never taken below the variance that independent rounds would give
(s^2/n over single rounds): with few deals the cluster estimate can come out
near zero by chance, and an interval should never claim more precision than
treating every round as independent would.

The *duplicate* figures (`duplicate=True`, `--correction duplicate`) drop that
floor once `DUPLICATE_MIN_DEALS` deals are counted (widened for heavy-tailed deal
totals: `ClusterSum.duplicate_df`). Duplicate deals are a
control variate with a known total: in every rotation another bot holds the
cards a bot held, so the luck of the cards (each game's seat value) cancels
within the deal, and the deal's spread is what is left. Between near-equal
bots that is most of the spread of single rounds, and the floor threw the
saving away (docs/agents.md, "Fewer deals"). The mean is the same; only the
interval narrows, and only as far as the deals' own spread says.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

NAN = float("nan")
#: Deals counted before a duplicate interval trusts the deals' own spread (before: the rounds' floor).
DUPLICATE_MIN_DEALS = 20


def t_quantile(p: float, df: int) -> float:
    """The p-quantile (p > 0.5) of Student's t with `df` degrees of freedom."""
    if df < 1:
        return NAN
    if df > 200:  # Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5): error < 1e-7 here
        z = NormalDist().inv_cdf(p)
        return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))
    lo, hi = 0.0, 1.0
    while _t_central(hi, df) < 2 * p - 1:
        hi *= 2
    for _ in range(100):  # bisection on the exact closed-form distribution
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _t_central(mid, df) < 2 * p - 1 else (lo, mid)
    return (lo + hi) / 2


def _t_central(t: float, df: int) -> float:
    """P(|T| <= t) for integer df: the finite sums of Abramowitz & Stegun 26.7.3-4."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:
        term, total = math.cos(theta), 0.0
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= c2 * (2 * k) / (2 * k + 1)
        return 2 / math.pi * (theta + math.sin(theta) * total) if df > 1 else 2 * theta / math.pi
    term, total = 1.0, 0.0
    for k in range(1, df // 2 + 1):
        total += term
        term *= c2 * (2 * k - 1) / (2 * k)
    return math.sin(theta) * total


def wilson(successes: float, n: float, z: float = NormalDist().inv_cdf(0.975)) -> tuple[float, float]:
    """Wilson score interval for a proportion successes/n (default 95%)."""
    if n <= 0:
        return NAN, NAN
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class ClusterSum:
    """Running sums over clusters (deals) of a total y_c over m_c units (rounds).

    `sq` is the sum of the squared unit values (for 0/1 data it equals y).
    `power` holds the sums of y^a m^(4-a) (a = 4..0) for the residuals' fourth
    moment (`kurtosis`). Constant memory however many clusters are added.
    """

    k: int = 0
    y: float = 0.0
    m: float = 0.0
    yy: float = 0.0
    mm: float = 0.0
    ym: float = 0.0
    sq: float = 0.0
    power: list[float] = field(default_factory=lambda: [0.0] * 5)

    def add(self, y: float, m: float, sq: float | None = None) -> None:
        if m <= 0:
            return
        self.k += 1
        self.sq += y if sq is None else sq
        self.y += y
        self.m += m
        self.yy += y * y
        self.mm += m * m
        self.ym += y * m
        for a in range(5):
            self.power[a] += y ** (4 - a) * m ** a

    def kurtosis(self) -> float:
        """Excess kurtosis of the clusters' residuals y - r m (0 for normal ones; NaN without spread)."""
        if self.k < 2:
            return NAN
        r = self.mean
        second = max(self.yy - 2 * r * self.ym + r * r * self.mm, 0.0) / self.k
        fourth = sum(c * (-r) ** a * p for a, (c, p) in enumerate(zip((1, 4, 6, 4, 1), self.power))) / self.k
        return fourth / (second * second) - 3 if second > 0 else NAN

    def duplicate_df(self) -> int:
        """Degrees of freedom the deals' own variance is worth: k - 1 for normal deal totals, fewer
        for heavy-tailed ones (most deals level, a few far off), as Var(s^2) = sigma^4 (2/(k-1) + excess/k)."""
        excess = self.kurtosis()
        excess = 0.0 if math.isnan(excess) else max(excess, 0.0)
        return max(1, min(self.k - 1, int(2 / (2 / (self.k - 1) + excess / self.k))))

    @property
    def mean(self) -> float:
        return self.y / self.m if self.m else NAN

    def variance(self, duplicate: bool = False) -> float:
        """Cluster-robust variance of `mean`, at least the independent-rounds one (NaN below 2 clusters).

        `duplicate`: the clustered variance alone once `DUPLICATE_MIN_DEALS` clusters are counted
        (the module docstring)."""
        if self.k < 2:
            return NAN
        r = self.mean
        ss = max(self.yy - 2 * r * self.ym + r * r * self.mm, 0.0)
        clustered = self.k / (self.k - 1) * ss / (self.m * self.m)
        if duplicate and self.k >= DUPLICATE_MIN_DEALS:
            # widened as the t quantile of the deals' effective degrees of freedom asks (heavy tails)
            widen = t_quantile(0.975, self.duplicate_df()) / t_quantile(0.975, self.k - 1)
            return clustered * widen * widen
        independent = max(self.sq - self.y * r, 0.0) / (self.m - 1) / self.m if self.m > 1 else 0.0
        return max(clustered, independent)

    def critical(self, level: float = 0.95) -> float:
        return t_quantile(0.5 + level / 2, self.k - 1)

    def mean_ci(self, level: float = 0.95, duplicate: bool = False) -> tuple[float, float]:
        """t interval of the mean on k-1 degrees of freedom."""
        half = self.critical(level) * math.sqrt(self.variance(duplicate)) if self.k >= 2 else NAN
        return self.mean - half, self.mean + half

    def rate_ci(self, level: float = 0.95) -> tuple[float, float]:
        """Wilson interval with the design-effect sample size (y_c counts successes)."""
        if self.k < 2:
            return NAN, NAN
        r, var = self.mean, self.variance()
        n_eff = r * (1 - r) / var if var > 0 and 0 < r < 1 else self.m
        return wilson(r * n_eff, n_eff, self.critical(level))


@dataclass
class SPRT:
    """Wald's sequential probability ratio test on Bernoulli trials.

    H0: p = p0 against H1: p = p1 (p0 < p1). After s successes and f failures
    the log-likelihood ratio is LLR = s*log(p1/p0) + f*log((1-p1)/(1-p0)).
    Stop and accept H1 when LLR >= log((1-beta)/alpha), accept H0 when
    LLR <= log(beta/(1-alpha)); alpha and beta are the nominal error rates.
    Fractional trials (a tie counts half) use the same formula.
    """

    p0: float = 0.45
    p1: float = 0.55
    alpha: float = 0.05
    beta: float = 0.05
    successes: float = 0.0
    failures: float = 0.0

    def __post_init__(self) -> None:
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError(f"SPRT needs 0 < p0 < p1 < 1, got p0={self.p0}, p1={self.p1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"SPRT alpha and beta must be between 0 and 0.5, got {self.alpha}, {self.beta}")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    @property
    def llr(self) -> float:
        return (self.successes * math.log(self.p1 / self.p0)
                + self.failures * math.log((1 - self.p1) / (1 - self.p0)))

    def add(self, successes: float, trials: float) -> None:
        self.successes += successes
        self.failures += trials - successes

    def normal_llr(self, share: float, variance: float) -> float:
        """The log-likelihood ratio of H1 against H0 for a share measured with a known `variance`.

        The generalised SPRT of engine testing: the share, a mean over deals, is taken as normal
        around p with the deals' own variance, so LLR = (p1 - p0) (share - (p0 + p1) / 2) / variance.
        With independent rounds (variance p(1-p)/n) it is the Bernoulli `llr` to first order."""
        if math.isnan(share) or math.isnan(variance):
            return 0.0
        return (self.p1 - self.p0) * (share - (self.p0 + self.p1) / 2) / max(variance, 1e-12)

    def decide(self, llr: float) -> str | None:
        """"H1", "H0", or None for a log-likelihood ratio against Wald's boundaries."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    @property
    def decision(self) -> str | None:
        """"H1", "H0", or None while the evidence is inside the boundaries."""
        return self.decide(self.llr)
