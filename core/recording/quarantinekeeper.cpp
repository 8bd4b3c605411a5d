#include "quarantinekeeper.h"

#include "pool/networkpool.h"
#include "pool/poolmanager.h"
#include "store/quarantines.h"
#include "store/readthread.h"
#include "store/storewriter.h"
#include "util/clock.h"
#include "util/osuser.h"

#include <QPointer>

namespace switchyard {

namespace {

QString storeClosed()
{
    return QStringLiteral("the store closed before the quarantines were read");
}

// The outcome that ends a quarantine or release whose look at the store's quarantines came to
// nothing: the keeper or the store closed first (`keeperAlive` false or no read), or the read
// failed.
std::optional<QuarantineOutcome>
unreadable(bool keeperAlive, const std::optional<store::ReadResult<QList<NodeQuarantine>>>& read)
{
    if (!keeperAlive || !read)
        return QuarantineOutcome{QuarantineOutcome::Kind::StoreFailed, storeClosed()};
    if (!read->ok())
        return QuarantineOutcome{QuarantineOutcome::Kind::StoreFailed, read->error};
    return std::nullopt;
}

std::optional<NodeQuarantine> heldFor(const QList<NodeQuarantine>& quarantines,
                                      const QString& network, const QString& node)
{
    for (const NodeQuarantine& quarantine : quarantines)
        if (quarantine.network == network && quarantine.node == node)
            return quarantine;
    return std::nullopt;
}

} // namespace

QuarantineKeeper::QuarantineKeeper(store::ReadThread* reads, store::StoreWriter* writer,
                                   PoolManager* pools, Clock* clock, QObject* parent)
    : QObject(parent)
    , m_reads(reads)
    , m_writer(writer)
    , m_pools(pools)
    , m_clock(clock ? clock : Clock::system())
{
    connect(writer, &store::StoreWriter::rejected, this,
            [this](quint64 ticket, const QString& error) { m_rejected.insert(ticket, error); });
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

QCoro::Task<std::optional<store::ReadResult<QList<NodeQuarantine>>>> QuarantineKeeper::readStore()
{
    auto job = [](store::Database& db) {
        return store::readQuarantines(db.connection());
    };
    std::optional<store::ReadResult<QList<NodeQuarantine>>> read =
        co_await m_reads->read(std::move(job));
    co_return read;
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
    QPointer<QuarantineKeeper> self(this);
    const auto read = co_await readStore();
    if (const std::optional<QuarantineOutcome> refused = unreadable(!self.isNull(), read))
        co_return *refused;
    if (const std::optional<NodeQuarantine> already = heldFor(read->value, network, node))
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
    QPointer<QuarantineKeeper> self(this);
    const auto read = co_await readStore();
    if (const std::optional<QuarantineOutcome> refused = unreadable(!self.isNull(), read))
        co_return *refused;
    if (!heldFor(read->value, network, node))
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
    const auto read = co_await readStore();
    if (!self || !read)
        co_return QuarantineOutcome{Kind::StoreFailed,
                                    QStringLiteral("stored, but not read back: ") + storeClosed()};
    if (const QString error = apply(*read); !error.isEmpty())
        co_return QuarantineOutcome{Kind::StoreFailed,
                                    QStringLiteral("stored, but not read back: ") + error};
    co_return QuarantineOutcome{};
}

} // namespace switchyard
