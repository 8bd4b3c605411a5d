#pragma once

#include "models/keyedtablemodel.h"
#include "models/modelroles.h"
#include "pool/routingrules.h"

#include <QMap>
#include <QTimer>
#include <memory>
#include <optional>

namespace switchyard {

class NetworkPool;
class PoolManager;

// Calls and failovers per RPC method and network over a sliding window (the last 5 minutes,
// hour or day), one column per failure cause. The chart and the table share it. Rows merge
// (inserted, removed, ranged dataChanged) as calls are routed and as the window slides.
class FailoverTableModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Method,
        Network,
        Calls,
        Failovers,
        MovedOff, // the nodes the failovers moved off, most first: "b ×12, c ×3"
        Transport,
        Timeout,
        TooManyRequests,
        ServerError,
        ClientError,
        OtherHttp,
        Malformed,
        Diverged, // the answer came from a node found serving another history
        ColumnCount
    };
    static constexpr int firstCauseColumn = Transport;
    static constexpr int lastCauseColumn = Diverged;

    static constexpr qint64 fiveMinutesMs = 5 * 60 * 1000;
    static constexpr qint64 oneHourMs = 60 * 60 * 1000;
    static constexpr qint64 oneDayMs = 24 * 60 * 60 * 1000;

    explicit FailoverTableModel(PoolManager* manager, QObject* parent = nullptr);
    ~FailoverTableModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static std::optional<FailureCause> causeOfColumn(int column);
    // "b ×12, c ×3": the nodes most moved off first, ties by name.
    static QString movedOffText(const QMap<QString, qint64>& byNode);
    static int columnOfCause(FailureCause cause); // -1 for probe-only causes

    // The window the counts cover, back from now.
    qint64 windowMs() const { return m_windowMs; }
    void setWindowMs(qint64 ms);
    static QString windowLabel(qint64 ms); // "last 5 minutes"

    // Failovers in the window over every network (or one), for summaries.
    qint64 totalFailovers(const QString& network = {}) const;

    // How long after a routed call the rows follow (calls can come thousands a second).
    void setCoalesceInterval(int ms);

public Q_SLOTS:
    // Re-sums every pool now: new methods become rows, counts that left the window drop.
    void refresh();

private:
    struct Row
    {
        QString network;
        QString method;
        qint64 calls = 0;
        qint64 failovers = 0;
        QMap<FailureCause, qint64> byCause;
        QMap<QString, qint64> byNode;

        QString key() const;
    };

    QList<Row> summarize() const;
    static quint64 changedColumns(const Row& before, const Row& after);
    void adoptPools();
    void scheduleRefresh();

    PoolManager* m_manager;
    QList<std::shared_ptr<NetworkPool>> m_pools;
    QList<Row> m_rows;
    qint64 m_windowMs = fiveMinutesMs;
    QTimer m_coalesce;
    QTimer m_slide; // the window moves on even when nothing is called
};

} // namespace switchyard
