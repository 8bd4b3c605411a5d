#include "chartstyle.h"

#include "appearance.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QPainter>
#include <QPixmap>

namespace switchyard::ui::charts {

namespace {
constexpr qreal chartTitlePointSize = 15;
constexpr qreal axisPointSize = 12.5;
constexpr qreal legendPointSize = 13;
constexpr int patternTile = 12;
} // namespace

void styleChart(QChart* chart)
{
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setTheme(QChart::ChartThemeLight);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(8, 8, 8, 8));
    chart->setTitleFont(withPointSize(chart->titleFont(), chartTitlePointSize, true));
    chart->legend()->setFont(withPointSize(chart->legend()->font(), legendPointSize));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeRectangle);
}

void styleAxis(QAbstractAxis* axis)
{
    axis->setLabelsFont(withPointSize(axis->labelsFont(), axisPointSize));
    axis->setTitleFont(withPointSize(axis->titleFont(), axisPointSize, true));
    axis->setLabelsColor(QColor(0x22, 0x22, 0x22));
    axis->setGridLineColor(QColor(0xdd, 0xdd, 0xdd));
}

const QList<QColor>& seriesPalette()
{
    static const QList<QColor> palette = {
        QColor(0x00, 0x72, 0xb2), // blue
        QColor(0xd5, 0x5e, 0x00), // vermillion
        QColor(0x00, 0x9e, 0x73), // bluish green
        QColor(0xcc, 0x79, 0xa7), // reddish purple
        QColor(0xe6, 0x9f, 0x00), // orange
        QColor(0x56, 0xb4, 0xe9), // sky blue
        QColor(0x33, 0x33, 0x33), // near black
    };
    return palette;
}

} // namespace switchyard::ui::charts

namespace switchyard::ui::charts {

QBrush patternBrush(const QColor& color, int index)
{
    QPixmap tile(patternTile, patternTile);
    tile.fill(color);
    QPainter painter(&tile);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(QColor(255, 255, 255, 210));
    pen.setWidthF(2.2);
    painter.setPen(pen);
    painter.setBrush(QColor(255, 255, 255, 210));
    constexpr int t = patternTile;
    // Lines run from tile edge to tile edge, so the tiles join into one pattern.
    switch (index % 8) {
    case 0: // solid
        break;
    case 1: // rising stripes
        painter.drawLine(0, t, t, 0);
        painter.drawLine(-t / 2, t / 2, t / 2, -t / 2);
        painter.drawLine(t / 2, t + t / 2, t + t / 2, t / 2);
        break;
    case 2: // dots
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QPointF(t / 4.0, t / 4.0), 1.9, 1.9);
        painter.drawEllipse(QPointF(3 * t / 4.0, 3 * t / 4.0), 1.9, 1.9);
        break;
    case 3: // horizontal stripes
        painter.drawLine(0, t / 2, t, t / 2);
        break;
    case 4: // cross-hatch
        painter.drawLine(0, t / 2, t, t / 2);
        painter.drawLine(t / 2, 0, t / 2, t);
        break;
    case 5: // falling stripes
        painter.drawLine(0, 0, t, t);
        painter.drawLine(-t / 2, t / 2, t / 2, t + t / 2);
        painter.drawLine(t / 2, -t / 2, t + t / 2, t / 2);
        break;
    case 6: // vertical stripes
        painter.drawLine(t / 2, 0, t / 2, t);
        break;
    default: // diagonal cross-hatch
        painter.drawLine(0, 0, t, t);
        painter.drawLine(0, t, t, 0);
        break;
    }
    painter.end();
    return QBrush(tile);
}

} // namespace switchyard::ui::charts
