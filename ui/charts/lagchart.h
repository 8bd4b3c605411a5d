#pragma once

#include "config/config.h"

#include <QHash>
#include <QWidget>
#include <functional>
#include <optional>

class QChart;
class QChartView;
class QCategoryAxis;
class QGraphicsSimpleTextItem;
class QHBoxLayout;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

namespace switchyard {
class LagRecorder;
}

namespace switchyard::ui::charts {

// One network's lag over a chosen range (15 minutes to a day): a line per node, told apart by
// colour, dash pattern, marker shape and its name at the line's end (not by colour alone), and
// dashed lines at warnLag and maxLag. A probe the node did not answer breaks its line: the gap
// carries a marker and a label with the reason ("b unhealthy: timeout"), never a drop to 0.
// Redrawing replaces each series' points in one go and is skipped when neither the history,
// the range nor the time changed.
class LagChart : public QWidget
{
    Q_OBJECT
public:
    LagChart(const NetworkConfig& network, const LagRecorder* recorder, QWidget* parent = nullptr);

    QString network() const { return m_network.name; }
    void setRangeMs(qint64 rangeMs);
    qint64 rangeMs() const { return m_rangeMs; }

    QStringList legendNames() const;
    int pointCount(const QString& node) const;   // drawn points over every piece of its line
    int lineSegments(const QString& node) const; // pieces of its line between gaps
    QStringList endLabels() const;               // as drawn at the lines' ends
    QStringList gapLabels() const;               // "b unhealthy: timeout", newest first

public Q_SLOTS:
    void redraw();

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct NodeLine
    {
        QColor color;
        Qt::PenStyle style = Qt::SolidLine;
        QList<QLineSeries*> segments;
        QScatterSeries* markers = nullptr; // its shape, thinned along the line; the legend entry
        QGraphicsSimpleTextItem* endLabel = nullptr;
        std::optional<QPointF> end; // the last point drawn, in chart values
    };

    QLineSeries* addLine(const QString& name, const QColor& color, Qt::PenStyle style, qreal width);
    QWidget* addLegendEntry(const QString& name, const QPen& pen, std::optional<int> shape);
    void drawNode(const QString& name, NodeLine& line, qint64 sinceMonotonic,
                  const std::function<qreal(qint64)>& wall, int nodeIndex);
    void placeLabels();
    // The lag axis' top and ticks for maxLag, the highest lag drawn and the plot's height.
    void scaleLagAxis();
    int lagTicksWithRoom() const;

    NetworkConfig m_network;
    const LagRecorder* m_recorder;
    QChartView* m_view;
    QChart* m_chart;
    // Drawn beside the chart rather than by QLegend, which shows each piece of a broken line
    // as an entry of its own and loses its layout when entries come and go.
    QWidget* m_legend;
    QHBoxLayout* m_legendLayout;
    QList<std::pair<QString, QWidget*>> m_legendEntries;
    QWidget* m_gapLegend = nullptr;
    QCategoryAxis* m_time; // wall-clock labels on round times, the axis ending at now
    QValueAxis* m_lag;
    qint64 m_rangeMs;
    QStringList m_nodeOrder;
    QHash<QString, NodeLine> m_nodes;
    struct Gap
    {
        QPointF at;    // chart values
        QString text;  // this point's reason, for its tooltip
        QString label; // on the first point of a run without answers: the run's last reason
    };
    QScatterSeries* m_gapMarkers = nullptr;
    QList<Gap> m_gaps; // in the order of m_gapMarkers' points
    QList<QGraphicsSimpleTextItem*> m_gapLabels;
    QLineSeries* m_warnLine = nullptr;
    QLineSeries* m_maxLine = nullptr;
    qint64 m_observedLag = 0; // the highest lag in the range drawn
    quint64 m_drawnRevision = 0;
    qint64 m_drawnAtMs = -1;
};

} // namespace switchyard::ui::charts
