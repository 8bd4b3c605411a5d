#include "chartstyle.h"

#include "appearance.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>

namespace switchyard::ui::charts {

namespace {
constexpr qreal chartTitlePointSize = 15;
constexpr qreal axisPointSize = 12.5;
constexpr qreal legendPointSize = 13;
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
