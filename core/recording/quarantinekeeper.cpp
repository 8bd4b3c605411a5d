#include "quarantinekeeper.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "store/quarantines.h"
#include "store/storewriter.h"
#include "util/clock.h"
#include "util/osuser.h"

#include <QPointer>

namespace switchyard {

QuarantineKeeper::QuarantineKeeper(QSqlDatabase connection, store::StoreWriter* writer,
                                   PoolManager* pools, Clock* clock, QObject* parent)
    : QObject(parent)
    , m_connection(std::move(connection))
    , m_writer(writer)
    , m_pools(pools)
    , m_clock(clock ? clock : Clock::system())
{
    connect(writer, &store::StoreWriter::rejected, this,
            [this](quint64 ticket, const QString& error) { m_rejected.insert(ticket, error); });
}

QString QuarantineKeeper::reload()
{
    return apply(store::readQuarantines(m_connection));
}

QString QuarantineKeeper::apply(const store::ReadResult<QList<NodeQuarantine>>& read)
{
    if (!read.ok()) {
        Q_EMIT readFailed(read.error);
        return read.error;
    }
    m_pools->setQuarantines(read.value);
    return {};
}

QString QuarantineKeeper::unknownNode(const QString& network, const QString& node) const
{
    const std::shared_ptr<NetworkPool> pool = m_pools->pool(network);
    if (!pool)
        return QStringLiteral("no network named '%1' in the configuration").arg(network);
    if (pool->indexOf(node) < 0) {
        QStringList names;
        for (int i = 0; i < pool->nodeCount(); ++i)
            names << pool->node(i).config.name;
        return QStringLiteral("no node named '%1' in network %2 (it has: %3)")
            .arg(node, network, names.join(QStringLiteral(", ")));
    }
    return {};
}

QString QuarantineKeeper::heldNow(const QString& network, const QString& node,
                                  std::optional<NodeQuarantine>* held) const
{
    const store::ReadResult<QList<NodeQuarantine>> read = store::readQuarantines(m_connection);
    for (const NodeQuarantine& quarantine : read.value)
        if (quarantine.network == network && quarantine.node == node)
            *held = quarantine;
    return read.error;
}

IncidentEvent QuarantineKeeper::quarantineEvent(IncidentEvent::Severity severity,
                                                const QString& network, const QString& node,
                                                const QString& message) const
{
    IncidentEvent event;
    event.time = m_clock->utcNow();
    event.severity = severity;
    event.kind = IncidentEvent::Kind::Quarantine;
    event.network = network;
    event.node = node;
    event.message = message;
    return event;
}

QCoro::Task<QuarantineOutcome> QuarantineKeeper::quarantine(QString network, QString node,
                                                            QString reason)
{
    using Kind = QuarantineOutcome::Kind;
    if (const QString unknown = unknownNode(network, node); !unknown.isEmpty())
        co_return QuarantineOutcome{Kind::BadInput, unknown};
    reason = reason.simplified();
    if (reason.isEmpty())
        co_return QuarantineOutcome{
            Kind::BadInput,
            QStringLiteral("a quarantine needs a reason (what is wrong with %1)").arg(node)};
    std::optional<NodeQuarantine> already;
    if (const QString error = heldNow(network, node, &already); !error.isEmpty())
        co_return QuarantineOutcome{Kind::StoreFailed, error};
    if (already)
        co_return QuarantineOutcome{Kind::NothingToDo,
                                    QStringLiteral("%1 in %2 is already quarantined %3")
                                        .arg(node, network, quarantineSummary(*already))};
    NodeQuarantine held{network, node, reason, osUserName(), m_clock->utcNow().toMSecsSinceEpoch()};
    const IncidentEvent event =
        quarantineEvent(IncidentEvent::Severity::Warning, network, node,
                        QStringLiteral("quarantined by %1: %2").arg(held.by, reason));
    // Named, not a temporary inside the co_await: GCC 12 destroys such a temporary's captures
    // twice.
    std::function<store::WriteError(QSqlDatabase&)> job = [held, event](QSqlDatabase& db) {
        return store::storeQuarantine(db, held, event);
    };
    const QuarantineOutcome outcome = co_await write(std::move(job));
    co_return outcome;
}

QCoro::Task<QuarantineOutcome> QuarantineKeeper::release(QString network, QString node)
{
    using Kind = QuarantineOutcome::Kind;
    if (const QString unknown = unknownNode(network, node); !unknown.isEmpty())
        co_return QuarantineOutcome{Kind::BadInput, unknown};
    std::optional<NodeQuarantine> held;
    if (const QString error = heldNow(network, node, &held); !error.isEmpty())
        co_return QuarantineOutcome{Kind::StoreFailed, error};
    if (!held)
        co_return QuarantineOutcome{
            Kind::NothingToDo, QStringLiteral("%1 in %2 is not quarantined").arg(node, network)};
    const IncidentEvent event =
        quarantineEvent(IncidentEvent::Severity::Info, network, node,
                        QStringLiteral("released from quarantine by %1").arg(osUserName()));
    std::function<store::WriteError(QSqlDatabase&)> job = [network, node, event](QSqlDatabase& db) {
        return store::storeRelease(db, network, node, event);
    };
    const QuarantineOutcome outcome = co_await write(std::move(job));
    co_return outcome;
}

QCoro::Task<QuarantineOutcome>
QuarantineKeeper::write(std::function<store::WriteError(QSqlDatabase&)> job)
{
    using Kind = QuarantineOutcome::Kind;
    QPointer<QuarantineKeeper> self(this);
    const quint64 ticket = m_writer->submit(std::move(job));
    co_await m_writer->flush();
    if (!self)
        co_return QuarantineOutcome{
            Kind::StoreFailed, QStringLiteral("the store closed before the write was settled")};
    if (const QString error = m_rejected.take(ticket); !error.isEmpty())
        co_return QuarantineOutcome{Kind::StoreFailed, error};
    // Obeyed here at once; other processes read it when they notice the commit.
    if (const QString error = reload(); !error.isEmpty())
        co_return QuarantineOutcome{Kind::StoreFailed,
                                    QStringLiteral("stored, but not read back: ") + error};
    co_return QuarantineOutcome{};
}

} // namespace switchyard
