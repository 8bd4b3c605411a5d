#pragma once

#include "events/incidentevent.h"
#include "pool/nodequarantine.h"
#include "store/records.h"

#include <QHash>
#include <QObject>
#include <QSqlDatabase>
#include <functional>
#include <optional>
#include <qcorotask.h>

namespace switchyard {

class Clock;
class PoolManager;

namespace store {
class ReadThread;
class StoreWriter;
struct WriteError;
} // namespace store

// What a quarantine or release came to, and why not when it did not.
struct QuarantineOutcome
{
    enum class Kind
    {
        Done,
        BadInput,    // no such node, no reason
        NothingToDo, // already quarantined, or not quarantined
        StoreFailed, // the store refused or failed the write
    };
    Kind kind = Kind::Done;
    QString error;

    bool ok() const { return kind == Kind::Done; }
};

// The operator's quarantines as one process keeps them: read from the store and given to the
// pool manager (apply(), at open and whenever the store changed under this process, so a
// quarantine from another desk, a command or a collector is obeyed here), and written through
// the store writer with their events (quarantine(), release()), checked against and read back
// from the store on its read thread. The window, `serve` and `switchyard node` all go through
// it. resources/docs/design.md, "Quarantine".
class QuarantineKeeper : public QObject
{
    Q_OBJECT
public:
    // `reads` and `writer`: of the same store (schema 8 or later).
    QuarantineKeeper(store::ReadThread* reads, store::StoreWriter* writer, PoolManager* pools,
                     Clock* clock, QObject* parent = nullptr);

    // Applies the store's quarantines as read: empty, or why they could not be read (the pools
    // keep what they had).
    QString apply(const store::ReadResult<QList<NodeQuarantine>>& read);

    // Quarantines node `node` of `network` with `reason` (its whitespace collapsed, never
    // empty), named as done by the OS user: stored with its event, then applied. Resolves once
    // stored, or with what was wrong (no such node, no reason, already quarantined, the store
    // refused it).
    QCoro::Task<QuarantineOutcome> quarantine(QString network, QString node, QString reason);
    // Releases it: the row goes, the event that says who released it stays.
    QCoro::Task<QuarantineOutcome> release(QString network, QString node);

Q_SIGNALS:
    // The store's quarantines could not be read (at a reload); the pools keep what they had.
    void readFailed(const QString& error);

private:
    QString unknownNode(const QString& network, const QString& node) const;
    // The store's quarantines now; nullopt when the store closed first.
    QCoro::Task<std::optional<store::ReadResult<QList<NodeQuarantine>>>> readStore();
    // The timeline's record of a quarantine or a release of the node, stamped now.
    IncidentEvent quarantineEvent(IncidentEvent::Severity severity, const QString& network,
                                  const QString& node, const QString& message) const;
    QCoro::Task<QuarantineOutcome> write(std::function<store::WriteError(QSqlDatabase&)> job);

    store::ReadThread* m_reads;
    store::StoreWriter* m_writer;
    PoolManager* m_pools;
    Clock* m_clock;
    QHash<quint64, QString> m_rejected; // by ticket, until its write() takes it
};

} // namespace switchyard
