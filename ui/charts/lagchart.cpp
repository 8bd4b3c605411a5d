#include "lagchart.h"

#include "chartstyle.h"
#include "models/displaytext.h"
#include "models/lagrecorder.h"
#include "util/clock.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

namespace switchyard::ui::charts {

namespace {

constexpr qint64 redrawAtLeastEveryMs = 5000; // the time axis slides even without probes
constexpr qint64 shortestSpanMs = 60 * 1000;

// A top for the lag axis above maxLag and every point, with whole-number ticks.
std::pair<qint64, int> lagScale(qint64 maxLag, qint64 observed)
{
    const qint64 wanted =
        std::max<qint64>({maxLag + std::max<qint64>(1, maxLag / 8), observed + 1, 5});
    qint64 step = 1;
    for (const qint64 candidate : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000}) {
        step = candidate;
        if (wanted / candidate <= 6)
            break;
    }
    const qint64 top = (wanted + step - 1) / step * step;
    return {top, int(top / step) + 1};
}

} // namespace

LagChart::LagChart(const NetworkConfig& network, const LagRecorder* recorder, QWidget* parent)
    : QWidget(parent)
    , m_network(network)
    , m_recorder(recorder)
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_time(new QCategoryAxis(m_chart))
    , m_lag(new QValueAxis(m_chart))
{
    styleChart(m_chart);
    m_chart->setTitle(tr("%1: %2 behind the network's reference height (up to the last 15 "
                         "minutes)")
                          .arg(m_network.name, display::heightUnit(m_network.family, 2)));
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_lag, Qt::AlignLeft);
    styleAxis(m_time);
    styleAxis(m_lag);
    m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_lag->setLabelFormat(QStringLiteral("%d"));
    m_lag->setTitleText(display::heightUnit(m_network.family, 2) + tr(" behind"));

    const QList<QColor>& palette = seriesPalette();
    for (int i = 0; i < m_network.nodes.size(); ++i)
        m_nodeSeries.insert(
            m_network.nodes[i].name,
            addLine(m_network.nodes[i].name, palette.at(i % palette.size()), Qt::SolidLine, 3));
    m_warnLine =
        addLine(tr("warnLag %1").arg(m_network.warnLag), QColor(0x55, 0x55, 0x55), Qt::DashLine, 2);
    m_maxLine = addLine(tr("maxLag %1").arg(m_network.maxLag), QColor(0xb7, 0x1c, 0x1c),
                        Qt::DashDotLine, 2.5);

    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    redraw();
}

QLineSeries* LagChart::addLine(const QString& name, const QColor& color, Qt::PenStyle style,
                               qreal width)
{
    auto* series = new QLineSeries(m_chart);
    series->setName(name);
    QPen pen(color);
    pen.setWidthF(width);
    pen.setStyle(style);
    series->setPen(pen);
    m_chart->addSeries(series);
    series->attachAxis(m_time);
    series->attachAxis(m_lag);
    return series;
}

QStringList LagChart::legendNames() const
{
    QStringList names;
    for (QLegendMarker* marker : m_chart->legend()->markers())
        if (marker->isVisible())
            names.append(marker->label());
    return names;
}

int LagChart::pointCount(const QString& node) const
{
    const QLineSeries* series = m_nodeSeries.value(node);
    return series ? int(series->count()) : 0;
}

void LagChart::redraw()
{
    const LagHistory& history = m_recorder->history();
    Clock* clock = m_recorder->clock() ? m_recorder->clock() : Clock::system();
    const qint64 nowMonotonic = clock->monotonicMs();
    if (history.revision() == m_drawnRevision && m_drawnAtMs >= 0 &&
        nowMonotonic - m_drawnAtMs < redrawAtLeastEveryMs)
        return;
    m_drawnRevision = history.revision();
    m_drawnAtMs = nowMonotonic;

    // History times are on the pools' monotonic clock; the axis shows the wall clock.
    const qint64 nowWall = clock->utcNow().toMSecsSinceEpoch();
    const auto wall = [&](qint64 monotonicMs) {
        return qreal(nowWall - (nowMonotonic - monotonicMs));
    };
    qint64 oldest = nowMonotonic;
    for (auto it = m_nodeSeries.begin(); it != m_nodeSeries.end(); ++it) {
        const QList<LagHistory::Point> points = history.points(m_network.name, it.key());
        QList<QPointF> line;
        line.reserve(points.size());
        for (const LagHistory::Point& point : points)
            line.append(QPointF(wall(point.timeMs), qreal(point.lag)));
        it.value()->replace(line);
        if (!points.isEmpty())
            oldest = std::min(oldest, points.first().timeMs);
    }

    // The whole span once there is that much history; until then the history there is, so the
    // lines use the width. The axis ends at now; its labels sit on round times.
    const qint64 span = std::clamp<qint64>(nowMonotonic - oldest, shortestSpanMs, history.spanMs());
    qint64 step = 15'000;
    for (const qint64 candidate : {15'000, 30'000, 60'000, 120'000, 180'000, 300'000}) {
        step = candidate;
        if (span / candidate <= 6)
            break;
    }
    const qreal from = qreal(nowWall - span);
    const qreal to = qreal(nowWall);
    for (const QString& label : m_time->categoriesLabels())
        m_time->remove(label);
    const QString format = step >= 60'000 ? QStringLiteral("HH:mm") : QStringLiteral("HH:mm:ss");
    for (qint64 tick = (nowWall - span + step - 1) / step * step; tick <= nowWall; tick += step)
        m_time->append(QDateTime::fromMSecsSinceEpoch(tick).toString(format), qreal(tick));
    m_time->setStartValue(from);
    m_time->setRange(from, to);
    m_warnLine->replace(
        {QPointF(from, qreal(m_network.warnLag)), QPointF(to, qreal(m_network.warnLag))});
    m_maxLine->replace(
        {QPointF(from, qreal(m_network.maxLag)), QPointF(to, qreal(m_network.maxLag))});

    const auto [top, ticks] = lagScale(m_network.maxLag, history.maxLag(m_network.name));
    // A little room under zero, so a node in sync is a line of its own, not the axis.
    const qreal tickStep = qreal(top) / (ticks - 1);
    m_lag->setRange(-tickStep * 0.12, qreal(top));
    m_lag->setTickType(QValueAxis::TicksDynamic);
    m_lag->setTickAnchor(0);
    m_lag->setTickInterval(tickStep);
}

} // namespace switchyard::ui::charts
