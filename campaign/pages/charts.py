"""History charts: territories, credits and units per player over the turns.

What a viewer may see is decided here, once: territories are public (the map shows
every owner); credits and units are private, so a player sees only their own series and
an umpire who does not play sees everyone's. Values come from the end-of-turn snapshots
(`campaign.models.TurnSnapshot`) plus a live point for the turn in progress. Charts are
inline SVG with a data table beside each (no script needed, readable by screen readers).
A fixed number of queries whatever the length of the campaign.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from campaign.access import Membership
from campaign.models import Player, TurnSnapshot
from campaign.services.snapshots import current_counts

METRICS = (("territories", "Territories held", True),
           ("credits", "Stellar Credits", False),
           ("units", "Units", False))


@dataclass
class Series:
    player: int
    name: str
    color: str
    points: dict[str, int] = field(default_factory=dict)  # column label -> value


@dataclass
class Chart:
    key: str
    title: str
    columns: list[str]
    series: list[Series]
    svg: str = ""
    note: str = ""

    @property
    def rows(self) -> list[tuple[str, list[Any]]]:
        return [(col, [s.points.get(col, "-") for s in self.series]) for col in self.columns]


def visible_players(member: Membership, *, public: bool, players: list[Player]) -> list[Player]:
    if public or (member.is_umpire and not member.umpire_plays):
        return players
    return [p for p in players if member.player is not None and p.pk == member.player.pk]


def history_charts(member: Membership) -> list[Chart]:
    campaign = member.campaign
    players = list(Player.objects.filter(campaign=campaign).select_related("user")
                   .order_by("pk"))
    rows: dict[str, dict[int, Any]] = {}
    for snap in TurnSnapshot.objects.filter(campaign=campaign).order_by("turn", "player_id"):
        rows.setdefault(f"Turn {snap.turn}", {})[snap.player_id] = snap
    if campaign.status != "setup" and f"Turn {campaign.turn}" not in rows:
        rows[f"Turn {campaign.turn} (now)"] = {c.player: c for c in
                                               current_counts(campaign=campaign)}
    columns = list(rows)
    charts = []
    for key, title, public in METRICS:
        shown = visible_players(member, public=public, players=players)
        series = [Series(player=p.pk, name=p.user.username, color=p.color or "#888888",
                         points={col: getattr(rows[col][p.pk], key) for col in columns
                                 if p.pk in rows[col]})
                  for p in shown]
        note = "" if public or len(shown) == len(players) else \
            "Only your own series: other players' figures are private."
        chart = Chart(key=key, title=title, columns=columns, series=series, note=note)
        chart.svg = line_chart_svg(chart)
        charts.append(chart)
    return charts


WIDTH, HEIGHT = 560, 260
LEFT, RIGHT, TOP, BOTTOM = 56, 34, 16, 40
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2")  # tell lines apart without colour


def _nice_max(value: int) -> int:
    if value <= 4:
        return 4
    magnitude = 10 ** (len(str(value)) - 1)
    for step in (1, 2, 2.5, 5, 10):
        top = int(step * magnitude)
        if top >= value:
            return top
    return value


def line_chart_svg(chart: Chart) -> str:
    """One line per series, a marker per point, axes with turn labels; the <title> and
    <desc> name the chart and say that the table beside it holds the same numbers."""
    cid = f"chart-{chart.key}"
    values = [v for s in chart.series for v in s.points.values()]
    low = min(0, min(values, default=0))
    high = _nice_max(max(values, default=0))
    span = (high - low) or 1
    n = max(1, len(chart.columns) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(i: int) -> float:
        return LEFT + (plot_w * i / n if len(chart.columns) > 1 else plot_w / 2)

    def py(v: float) -> float:
        return TOP + plot_h * (1 - (v - low) / span)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
           f'role="img" aria-labelledby="{cid}-title {cid}-desc" font-family="sans-serif" '
           'font-size="12">',
           f'<title id="{cid}-title">{escape(chart.title)} per player over the turns</title>',
           f'<desc id="{cid}-desc">Line chart; the table next to it lists the same '
           'values.</desc>',
           f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fff" '
           'stroke="#8795a1"/>']
    for k in range(5):
        v = low + span * k / 4
        y = py(v)
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="#e3e9ef" aria-hidden="true"/><text x="{LEFT - 6}" '
                   f'y="{y + 4:.1f}" text-anchor="end" fill="#1b1f24">{v:g}</text>')
    every = max(1, len(chart.columns) // 8)
    for i, col in enumerate(chart.columns):
        if i % every == 0 or i == len(chart.columns) - 1:
            label = col.replace("Turn ", "T").replace(" (now)", " now")
            out.append(f'<text x="{px(i):.1f}" y="{HEIGHT - BOTTOM + 18}" '
                       f'text-anchor="middle" fill="#1b1f24">{escape(label)}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle" '
               'fill="#4a5561">turn</text>')
    for n_series, s in enumerate(chart.series):
        pts = [(px(i), py(s.points[col])) for i, col in enumerate(chart.columns)
               if col in s.points]
        dash = DASHES[n_series % len(DASHES)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g><title>{escape(s.name)}</title>')
        if len(pts) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke={quoteattr(s.color)} '
                       f'stroke-width="2.5"{dash_attr}/>')
        for x, y in pts:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill={quoteattr(s.color)} '
                       'stroke="#111"/>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
