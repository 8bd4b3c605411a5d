#pragma once

#include "config/config.h"

#include <QHash>
#include <QWidget>

class QChart;
class QChartView;
class QCategoryAxis;
class QLineSeries;
class QValueAxis;

namespace switchyard {
class LagRecorder;
}

namespace switchyard::ui::charts {

// One network's lag over the last 15 minutes: a line per node (the legend names them) and
// dashed lines at warnLag and maxLag. Redrawing replaces each series' points in one go and
// is skipped when neither the history nor the minute changed.
class LagChart : public QWidget
{
    Q_OBJECT
public:
    LagChart(const NetworkConfig& network, const LagRecorder* recorder, QWidget* parent = nullptr);

    QString network() const { return m_network.name; }
    QStringList legendNames() const;
    int pointCount(const QString& node) const;

public Q_SLOTS:
    void redraw();

private:
    QLineSeries* addLine(const QString& name, const QColor& color, Qt::PenStyle style, qreal width);

    NetworkConfig m_network;
    const LagRecorder* m_recorder;
    QChartView* m_view;
    QChart* m_chart;
    QCategoryAxis* m_time; // wall-clock labels on round times, the axis ending at now
    QValueAxis* m_lag;
    QHash<QString, QLineSeries*> m_nodeSeries;
    QLineSeries* m_warnLine = nullptr;
    QLineSeries* m_maxLine = nullptr;
    quint64 m_drawnRevision = 0;
    qint64 m_drawnAtMs = -1;
};

} // namespace switchyard::ui::charts
