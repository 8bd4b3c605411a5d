#pragma once

#include <QBrush>
#include <QColor>
#include <QList>

class QChart;
class QAbstractAxis;

// Qt Charts stays inside ui/charts/ (it is deprecated from Qt 6.10; a port to Qt Graphs touches
// this folder only). This file: how every chart of the dashboard looks.
namespace switchyard::ui::charts {

// Large type for titles, axes and legends; no animation (a dashboard redraws all day).
void styleChart(QChart* chart);
void styleAxis(QAbstractAxis* axis);

// Okabe–Ito: distinguishable with the common colour-vision deficiencies, dark enough on white.
const QList<QColor>& seriesPalette();

// `color` with the pattern numbered `index` over it (solid, stripes, dots, hatching...), so
// filled areas read in grey and print too, not by colour alone.
QBrush patternBrush(const QColor& color, int index);

} // namespace switchyard::ui::charts
