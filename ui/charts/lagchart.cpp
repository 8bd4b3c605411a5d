#include "lagchart.h"

#include "appearance.h"
#include "chartstyle.h"
#include "models/displaytext.h"
#include "models/lagrecorder.h"
#include "util/clock.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QPixmap>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace switchyard::ui::charts {

namespace {

constexpr qint64 redrawAtLeastEveryMs = 5000; // the time axis slides even without probes
constexpr qint64 shortestSpanMs = 60 * 1000;
constexpr int markersPerLine = 10;
constexpr int gapLabelsShown = 4; // the newest; older gaps keep their marker and tooltip
constexpr qreal markerSize = 12;
constexpr qreal gapMarkerSize = 13;

const QColor gapColor(0xb7, 0x1c, 0x1c);

// With colour, the second and third way to tell nodes apart.
Qt::PenStyle nodePenStyle(int index)
{
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine,
                                          Qt::DashDotDotLine};
    return styles[index % std::size(styles)];
}

QScatterSeries::MarkerShape nodeMarkerShape(int index)
{
    static const QScatterSeries::MarkerShape shapes[] = {
        QScatterSeries::MarkerShapeCircle, QScatterSeries::MarkerShapeRectangle,
        QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle,
        QScatterSeries::MarkerShapePentagon};
    return shapes[index % std::size(shapes)];
}

// A top for the lag axis above maxLag and every point, with whole-number ticks, at most
// `maxTicks` of them.
std::pair<qint64, int> lagScale(qint64 maxLag, qint64 observed, int maxTicks)
{
    const qint64 wanted =
        std::max<qint64>({maxLag + std::max<qint64>(1, maxLag / 8), observed + 1, 5});
    qint64 step = 1;
    for (const qint64 candidate : {1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000,
                                   10'000, 20'000, 50'000, 100'000}) {
        step = candidate;
        if (wanted / candidate <= maxTicks - 1)
            break;
    }
    const qint64 top = (wanted + step - 1) / step * step;
    return {top, int(top / step) + 1};
}

QString rangeText(qint64 rangeMs)
{
    const qint64 minutes = rangeMs / 60'000;
    if (minutes == 60)
        return LagChart::tr("the last hour");
    if (minutes % 60 == 0)
        return LagChart::tr("the last %1 hours").arg(minutes / 60);
    return LagChart::tr("the last %1 minutes").arg(minutes);
}

QPolygonF regularPolygon(QPointF center, qreal outer, qreal inner, int corners)
{
    QPolygonF polygon;
    const int points = inner > 0 ? corners * 2 : corners;
    for (int i = 0; i < points; ++i) {
        const qreal radius = inner > 0 && i % 2 == 1 ? inner : outer;
        const qreal angle = -M_PI / 2 + 2 * M_PI * i / points;
        polygon << center + QPointF(radius * std::cos(angle), radius * std::sin(angle));
    }
    return polygon;
}

// The shapes QScatterSeries draws, for the legend beside the chart.
void drawMarker(QPainter& painter, int shape, QPointF center, qreal size)
{
    const qreal half = size / 2;
    switch (shape) {
    case QScatterSeries::MarkerShapeCircle:
        painter.drawEllipse(center, half, half);
        break;
    case QScatterSeries::MarkerShapeRectangle:
        painter.drawRect(QRectF(center - QPointF(half, half), QSizeF(size, size)));
        break;
    case QScatterSeries::MarkerShapeTriangle:
        painter.drawPolygon(QPolygonF{center + QPointF(0, -half), center + QPointF(half, half),
                                      center + QPointF(-half, half)});
        break;
    case QScatterSeries::MarkerShapeRotatedRectangle:
        painter.drawPolygon(regularPolygon(center, half, 0, 4));
        break;
    case QScatterSeries::MarkerShapePentagon:
        painter.drawPolygon(regularPolygon(center, half, 0, 5));
        break;
    default:
        painter.drawPolygon(regularPolygon(center, half, half * 0.45, 5));
        break;
    }
}

} // namespace

LagChart::LagChart(const NetworkConfig& network, const LagRecorder* recorder, QWidget* parent)
    : QWidget(parent)
    , m_network(network)
    , m_recorder(recorder)
    , m_view(new QChartView(this))
    , m_chart(new QChart)
    , m_legend(new QWidget(this))
    , m_legendLayout(new QHBoxLayout(m_legend))
    , m_time(new QCategoryAxis(m_chart))
    , m_lag(new QValueAxis(m_chart))
    , m_rangeMs(LagHistory::defaultFineSpanMs)
{
    styleChart(m_chart);
    m_chart->legend()->hide();
    m_legendLayout->setContentsMargins(8, 0, 8, 4);
    m_legendLayout->setSpacing(6);
    m_legendLayout->addStretch(1);
    m_chart->addAxis(m_time, Qt::AlignBottom);
    m_chart->addAxis(m_lag, Qt::AlignLeft);
    styleAxis(m_time);
    styleAxis(m_lag);
    m_time->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_lag->setLabelFormat(QStringLiteral("%d"));
    // The unit alone names the axis (the chart's title says behind what): a short laptop
    // chart cut "slots behind" to "slots beh…".
    m_lag->setTitleText(display::heightUnit(m_network.family, 2));

    const QList<QColor>& palette = seriesPalette();
    const QFont labelFont = withPointSize(font(), 12.5, true);
    int widestName = 0;
    for (int i = 0; i < m_network.nodes.size(); ++i) {
        const QString& name = m_network.nodes[i].name;
        NodeLine line;
        line.color = palette.at(i % palette.size());
        line.style = nodePenStyle(i);
        line.segments.append(addLine(name, line.color, line.style, 3));
        addLegendEntry(name, line.segments.first()->pen(), nodeMarkerShape(i));
        line.markers = new QScatterSeries(m_chart);
        line.markers->setName(name);
        line.markers->setMarkerShape(nodeMarkerShape(i));
        line.markers->setMarkerSize(markerSize);
        line.markers->setColor(line.color);
        line.markers->setBorderColor(Qt::white);
        m_chart->addSeries(line.markers);
        line.markers->attachAxis(m_time);
        line.markers->attachAxis(m_lag);
        line.endLabel = new QGraphicsSimpleTextItem(name, m_chart);
        line.endLabel->setFont(labelFont);
        line.endLabel->setBrush(line.color.darker(130));
        line.endLabel->setZValue(10);
        widestName = std::max(widestName, QFontMetrics(labelFont).horizontalAdvance(name));
        m_nodeOrder.append(name);
        m_nodes.insert(name, line);
    }
    m_gapMarkers = new QScatterSeries(m_chart);
    m_gapMarkers->setName(tr("no answer (hover for why)"));
    m_gapMarkers->setMarkerShape(QScatterSeries::MarkerShapeStar);
    m_gapMarkers->setMarkerSize(gapMarkerSize);
    m_gapMarkers->setColor(gapColor);
    m_gapMarkers->setBorderColor(gapColor);
    m_chart->addSeries(m_gapMarkers);
    m_gapMarkers->attachAxis(m_time);
    m_gapMarkers->attachAxis(m_lag);
    connect(m_gapMarkers, &QScatterSeries::hovered, this, [this](const QPointF& point, bool on) {
        if (!on) {
            QToolTip::hideText();
            return;
        }
        for (const Gap& gap : std::as_const(m_gaps))
            if (gap.at == point)
                QToolTip::showText(QCursor::pos(), gap.text, this);
    });
    m_warnLine =
        addLine(tr("warnLag %1").arg(m_network.warnLag), QColor(0x55, 0x55, 0x55), Qt::DashLine, 2);
    addLegendEntry(m_warnLine->name(), m_warnLine->pen(), std::nullopt);
    m_maxLine = addLine(tr("maxLag %1").arg(m_network.maxLag), QColor(0xb7, 0x1c, 0x1c),
                        Qt::DashDotLine, 2.5);
    addLegendEntry(m_maxLine->name(), m_maxLine->pen(), std::nullopt);
    m_gapLegend = addLegendEntry(m_gapMarkers->name(), QPen(gapColor, 0, Qt::NoPen),
                                 QScatterSeries::MarkerShapeStar);
    m_gapLegend->hide();
    m_legendLayout->addStretch(1);
    // Room right of the plot for the names at the lines' ends.
    m_chart->setMargins(QMargins(8, 8, widestName + 20, 8));

    m_view->setChart(m_chart);
    m_view->setRenderHint(QPainter::Antialiasing);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    m_legend->setAutoFillBackground(true);
    m_legend->setPalette(QPalette(Qt::white));
    connect(m_chart, &QChart::plotAreaChanged, this, &LagChart::placeLabels);
    setRangeMs(m_rangeMs);
}

void LagChart::setRangeMs(qint64 rangeMs)
{
    m_rangeMs = std::clamp<qint64>(rangeMs, shortestSpanMs, LagHistory::defaultSpanMs);
    m_chart->setTitle(
        tr("%1: %2 behind the network's reference height, %3")
            .arg(m_network.name, display::heightUnit(m_network.family, 2), rangeText(m_rangeMs)));
    m_drawnAtMs = -1;
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
    pen.setCapStyle(Qt::FlatCap);
    series->setPen(pen);
    m_chart->addSeries(series);
    series->attachAxis(m_time);
    series->attachAxis(m_lag);
    return series;
}

QWidget* LagChart::addLegendEntry(const QString& name, const QPen& pen, std::optional<int> shape)
{
    constexpr QSize iconSize(44, 20);
    QPixmap icon(iconSize);
    icon.fill(Qt::transparent);
    QPainter painter(&icon);
    painter.setRenderHint(QPainter::Antialiasing);
    if (pen.style() != Qt::NoPen) {
        painter.setPen(pen);
        painter.drawLine(QPointF(1, iconSize.height() / 2.0),
                         QPointF(iconSize.width() - 1, iconSize.height() / 2.0));
    }
    if (shape) {
        painter.setPen(
            QPen(*shape == QScatterSeries::MarkerShapeStar ? pen.color() : Qt::white, 1.2));
        painter.setBrush(pen.color());
        drawMarker(painter, *shape, QPointF(iconSize.width() / 2.0, iconSize.height() / 2.0),
                   *shape == QScatterSeries::MarkerShapeStar ? gapMarkerSize : markerSize);
    }
    painter.end();

    auto* entry = new QWidget(m_legend);
    auto* entryLayout = new QHBoxLayout(entry);
    entryLayout->setContentsMargins(0, 0, 10, 0);
    entryLayout->setSpacing(4);
    auto* iconLabel = new QLabel(entry);
    iconLabel->setPixmap(icon);
    auto* text = new QLabel(name, entry);
    text->setFont(withPointSize(font(), 13));
    setTextColor(text, QColor(0x22, 0x22, 0x22));
    entryLayout->addWidget(iconLabel);
    entryLayout->addWidget(text);
    m_legendLayout->addWidget(entry);
    m_legendEntries.append({name, entry});
    return entry;
}

QStringList LagChart::legendNames() const
{
    QStringList names;
    for (const auto& [name, entry] : m_legendEntries)
        if (!entry->isHidden())
            names.append(name);
    return names;
}

int LagChart::pointCount(const QString& node) const
{
    const auto found = m_nodes.constFind(node);
    if (found == m_nodes.cend())
        return 0;
    int count = 0;
    for (const QLineSeries* segment : found->segments)
        count += int(segment->count());
    return count;
}

int LagChart::lineSegments(const QString& node) const
{
    const auto found = m_nodes.constFind(node);
    if (found == m_nodes.cend())
        return 0;
    return int(std::count_if(found->segments.cbegin(), found->segments.cend(),
                             [](const QLineSeries* segment) { return segment->count() > 0; }));
}

QStringList LagChart::endLabels() const
{
    QStringList labels;
    for (const QString& name : m_nodeOrder)
        if (m_nodes.value(name).endLabel->isVisible())
            labels.append(m_nodes.value(name).endLabel->text());
    return labels;
}

QStringList LagChart::gapLabels() const
{
    QStringList labels;
    for (const QGraphicsSimpleTextItem* label : m_gapLabels)
        labels.append(label->text());
    return labels;
}

void LagChart::drawNode(const QString& name, NodeLine& line, qint64 sinceMonotonic,
                        const std::function<qreal(qint64)>& wall, int nodeIndex)
{
    const QList<LagHistory::Point> points =
        m_recorder->history().points(m_network.name, name, sinceMonotonic);
    QList<QList<QPointF>> pieces(1);
    QList<QPointF> drawn;
    std::optional<qreal> lastLag;
    std::optional<qsizetype> gapStart; // in m_gaps, while in a run without answers
    line.end.reset();
    for (const LagHistory::Point& point : points) {
        const qreal x = wall(point.timeMs);
        if (point.lag) {
            pieces.last().append(QPointF(x, qreal(*point.lag)));
            drawn.append(pieces.last().last());
            lastLag = qreal(*point.lag);
            line.end = pieces.last().last();
        }
        if (point.lag)
            gapStart.reset();
        if (point.unhealthy.isEmpty())
            continue;
        const QPointF at(x, point.lag ? qreal(*point.lag) : lastLag.value_or(0));
        const QString text = name + u' ' + point.unhealthy;
        m_gaps.append({at, text, {}});
        if (!point.lag) {
            if (!gapStart)
                gapStart = m_gaps.size() - 1;
            m_gaps[*gapStart].label = text;
            line.end = at;
            if (!pieces.last().isEmpty())
                pieces.append(QList<QPointF>());
        }
    }
    if (pieces.size() > 1 && pieces.last().isEmpty())
        pieces.removeLast();
    while (line.segments.size() < pieces.size())
        line.segments.append(addLine(name, line.color, line.style, 3));
    for (int i = 0; i < line.segments.size(); ++i)
        line.segments[i]->replace(i < pieces.size() ? pieces[i] : QList<QPointF>());

    // Markers spread along the line, each node's shifted, so lines on top of each other still
    // show every node's shape in turn.
    const int step = std::max<int>(1, int(drawn.size()) / markersPerLine);
    const int phase = int(step * nodeIndex / std::max<qsizetype>(1, m_nodeOrder.size()));
    QList<QPointF> markers;
    for (qsizetype i = phase % step; i < drawn.size(); i += step)
        markers.append(drawn[i]);
    line.markers->replace(markers);
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
    const qint64 since = nowMonotonic - m_rangeMs;
    qint64 oldest = nowMonotonic;
    m_gaps.clear();
    for (int i = 0; i < m_nodeOrder.size(); ++i) {
        drawNode(m_nodeOrder[i], m_nodes[m_nodeOrder[i]], since, wall, i);
        const QList<LagHistory::Point> points =
            history.points(m_network.name, m_nodeOrder[i], since);
        if (!points.isEmpty())
            oldest = std::min(oldest, points.first().timeMs);
    }
    QList<QPointF> gapPoints;
    for (const Gap& gap : std::as_const(m_gaps))
        gapPoints.append(gap.at);
    m_gapMarkers->replace(gapPoints);
    m_gapLegend->setHidden(gapPoints.isEmpty());

    // The whole range once there is that much history; until then the history there is, so
    // the lines use the width. The axis ends at now; its labels sit on round times.
    const qint64 span = std::clamp<qint64>(nowMonotonic - oldest, shortestSpanMs, m_rangeMs);
    qint64 step = 15'000;
    for (const qint64 candidate :
         {15'000, 30'000, 60'000, 120'000, 180'000, 300'000, 600'000, 900'000, 1'800'000, 3'600'000,
          7'200'000, 10'800'000, 14'400'000}) {
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

    m_observedLag = history.maxLag(m_network.name, since);
    scaleLagAxis();
    placeLabels();
}

int LagChart::lagTicksWithRoom() const
{
    // Qt Charts gives each label of a vertical axis the axis' height divided by their number,
    // less its padding, and cuts a label taller than that to "...": on a laptop screen two
    // charts share the tab and seven ticks did not fit.
    // Measured on the view, not on the plot area: the labels' own number moves the plot area
    // (Qt Charts keeps room above and below for them), and a count taken from it swings.
    constexpr int labelPadding = 2 * 5 + 4;
    const int label = QFontMetrics(m_lag->labelsFont()).height() + labelPadding;
    const int plot = m_view->height() - 2 * QFontMetrics(m_chart->titleFont()).height() -
                     2 * QFontMetrics(m_time->labelsFont()).height() - 2 * labelPadding;
    return std::clamp(plot / label, 2, 7);
}

void LagChart::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    scaleLagAxis(); // a shorter chart has room for fewer labels
}

void LagChart::scaleLagAxis()
{
    const auto [top, ticks] = lagScale(m_network.maxLag, m_observedLag, lagTicksWithRoom());
    // A little room under zero, so a node in sync is a line of its own, not the axis.
    const qreal tickStep = qreal(top) / (ticks - 1);
    if (m_lag->max() == qreal(top) && m_lag->tickInterval() == tickStep)
        return;
    m_lag->setRange(-tickStep * 0.12, qreal(top));
    m_lag->setTickType(QValueAxis::TicksDynamic);
    m_lag->setTickAnchor(0);
    m_lag->setTickInterval(tickStep);
}

void LagChart::placeLabels()
{
    const QRectF plot = m_chart->plotArea();
    // Names at the lines' ends, nudged apart where lines end at the same height.
    QList<std::pair<qreal, QGraphicsSimpleTextItem*>> ends;
    for (const QString& name : std::as_const(m_nodeOrder)) {
        NodeLine& line = m_nodes[name];
        line.endLabel->setVisible(line.end.has_value());
        if (!line.end)
            continue;
        const QPointF at = m_chart->mapToPosition(*line.end, m_warnLine);
        const qreal height = line.endLabel->boundingRect().height();
        // Right of the plot for a line that runs to now; at its end for one that stopped earlier.
        const qreal x = at.x() > plot.right() - plot.width() / 4 ? plot.right() + 6 : at.x() + 8;
        line.endLabel->setPos(x, at.y() - height / 2);
        ends.append({at.y(), line.endLabel});
    }
    std::stable_sort(ends.begin(), ends.end(),
                     [](const auto& l, const auto& r) { return l.first < r.first; });
    qreal nextFree = -1e9;
    for (auto& [y, label] : ends) {
        const qreal height = label->boundingRect().height();
        const qreal top = std::max(label->pos().y(), nextFree);
        label->setPos(label->pos().x(), top);
        nextFree = top + height - 2;
    }
    // Nodes in step at 0 would push their names below the axis: stack those upwards instead.
    std::optional<qreal> bottomLimit;
    for (auto end = ends.rbegin(); end != ends.rend(); ++end) {
        QGraphicsSimpleTextItem* label = end->second;
        const qreal height = label->boundingRect().height();
        if (!bottomLimit)
            bottomLimit = plot.bottom() + height / 2;
        const qreal top = std::min(label->pos().y(), *bottomLimit - height);
        label->setPos(label->pos().x(), top);
        bottomLimit = top + 2;
    }
    // The newest gaps say why above where they begin; older ones keep their marker.
    qDeleteAll(m_gapLabels);
    m_gapLabels.clear();
    QList<QRectF> taken;
    for (const auto& [y, label] : ends)
        taken.append(QRectF(label->pos(), label->boundingRect().size()));
    for (auto gap = m_gaps.crbegin(); gap != m_gaps.crend(); ++gap) {
        if (gap->label.isEmpty() || m_gapLabels.size() >= gapLabelsShown)
            continue;
        auto* label = new QGraphicsSimpleTextItem(gap->label, m_chart);
        label->setFont(withPointSize(font(), 11.5, true));
        label->setBrush(gapColor);
        label->setZValue(11);
        const QPointF at = m_chart->mapToPosition(gap->at, m_warnLine);
        const QRectF size = label->boundingRect();
        QPointF pos(
            std::clamp(at.x() - size.width() / 2, plot.left() + 2, plot.right() - size.width() - 2),
            std::max(plot.top() + 2, at.y() - size.height() - gapMarkerSize / 2 - 2));
        QRectF box(pos, size.size());
        while (std::any_of(taken.cbegin(), taken.cend(),
                           [&](const QRectF& other) { return other.intersects(box); }))
            box.translate(0, -size.height());
        if (box.top() < plot.top()) {
            delete label;
            continue;
        }
        label->setPos(box.topLeft());
        taken.append(box);
        m_gapLabels.append(label);
    }
}

} // namespace switchyard::ui::charts
