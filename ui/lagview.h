#pragma once

#include <QTimer>
#include <QWidget>

class QButtonGroup;
class QVBoxLayout;

namespace switchyard {
class LagRecorder;
class PoolManager;
} // namespace switchyard

namespace switchyard::ui {

class EmptyState;
namespace charts {
class LagChart;
}

// Lag over time, one chart per network shown (their units differ: slots, blocks), over the
// last 15 minutes, hour or day.
class LagView : public QWidget
{
    Q_OBJECT
public:
    LagView(PoolManager* manager, LagRecorder* recorder, QWidget* parent = nullptr);

    void setNetwork(const QString& network); // empty: every network
    QList<charts::LagChart*> charts() const { return m_charts; }
    void setRangeMs(qint64 rangeMs); // one of rangesMs()
    qint64 rangeMs() const { return m_rangeMs; }
    static QList<qint64> rangesMs();

Q_SIGNALS:
    void rangeChanged(qint64 rangeMs);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();
    void scheduleRedraw();
    void redraw();

    PoolManager* m_manager;
    LagRecorder* m_recorder;
    QString m_network;
    qint64 m_rangeMs;
    QButtonGroup* m_ranges;
    QVBoxLayout* m_layout;
    EmptyState* m_empty;
    QList<charts::LagChart*> m_charts;
    QTimer m_throttle; // at most one redraw a second, however many probes land
    QTimer m_slide;
};

} // namespace switchyard::ui
