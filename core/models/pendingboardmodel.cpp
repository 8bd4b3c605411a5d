#include "pendingboardmodel.h"

#include "chain/familyrules.h"
#include "models/displaytext.h"
#include "models/rowdiff.h"
#include "tracking/expiry.h"
#include "tracking/transactiontracker.h"
#include "util/clock.h"

#include <algorithm>

namespace switchyard {

using tracking::TrackedTransaction;
using tracking::TxState;

namespace {

constexpr int defaultAgeRefreshMs = 1000;

// What a card shows: when none of these moved, the card does not repaint.
bool sameCard(const TrackedTransaction& a, const TrackedTransaction& b)
{
    return a.state == b.state && a.stateSinceMs == b.stateSinceMs && a.attempts == b.attempts &&
           a.lastNode == b.lastNode && a.lastHeight == b.lastHeight && a.intentId == b.intentId &&
           a.lastValidBlockHeight == b.lastValidBlockHeight &&
           a.wire.has_value() == b.wire.has_value() && a.error == b.error &&
           a.network == b.network && a.confirmedMs == b.confirmedMs &&
           a.finalizedMs == b.finalizedMs;
}

QVariant optionalValue(const std::optional<qint64>& value)
{
    return value ? QVariant::fromValue(*value) : QVariant();
}

} // namespace

BoardColumn boardColumnOf(TxState state)
{
    switch (state) {
    case TxState::Imported:
    case TxState::Submitted:
    case TxState::TransportUnknown:
        return BoardColumn::Pending;
    case TxState::Confirmed:
        return BoardColumn::Confirmed;
    case TxState::Finalized:
        return BoardColumn::Finalized;
    case TxState::ExecutionFailed:
    case TxState::Expired:
    case TxState::Superseded:
        return BoardColumn::Failed;
    }
    Q_UNREACHABLE();
}

QString boardColumnKey(BoardColumn column)
{
    switch (column) {
    case BoardColumn::Pending:
        return QStringLiteral("pending");
    case BoardColumn::Confirmed:
        return QStringLiteral("confirmed");
    case BoardColumn::Finalized:
        return QStringLiteral("finalized");
    case BoardColumn::Failed:
        return QStringLiteral("failed");
    }
    Q_UNREACHABLE();
}

QString boardColumnTitle(BoardColumn column)
{
    switch (column) {
    case BoardColumn::Pending:
        return QStringLiteral("Pending");
    case BoardColumn::Confirmed:
        return QStringLiteral("Confirmed");
    case BoardColumn::Finalized:
        return QStringLiteral("Finalized");
    case BoardColumn::Failed:
        return QStringLiteral("Failed");
    }
    Q_UNREACHABLE();
}

QString boardColumnIconName(BoardColumn column)
{
    switch (column) {
    case BoardColumn::Pending:
        return QStringLiteral("state-lagging"); // a clock: waiting
    case BoardColumn::Confirmed:
        return QStringLiteral("state-probation"); // an hourglass: landed, final later
    case BoardColumn::Finalized:
        return QStringLiteral("state-healthy");
    case BoardColumn::Failed:
        return QStringLiteral("severity-critical");
    }
    Q_UNREACHABLE();
}

QString txStateIconName(TxState state)
{
    switch (state) {
    case TxState::Imported:
        return QStringLiteral("state-not-probed");
    case TxState::Submitted:
        return QStringLiteral("state-lagging");
    case TxState::TransportUnknown:
        return QStringLiteral("severity-warning");
    case TxState::Confirmed:
        return QStringLiteral("state-probation");
    case TxState::Finalized:
        return QStringLiteral("state-healthy");
    case TxState::ExecutionFailed:
    case TxState::Expired:
    case TxState::Superseded:
        return QStringLiteral("severity-critical");
    }
    Q_UNREACHABLE();
}

PendingBoardModel::PendingBoardModel(tracking::TransactionTracker* tracker, Clock* clock,
                                     QObject* parent)
    : QAbstractListModel(parent)
    , m_tracker(tracker)
    , m_clock(clock ? clock : Clock::system())
{
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(0);
    connect(&m_flushTimer, &QTimer::timeout, this, &PendingBoardModel::flush);
    m_ageTimer.setInterval(defaultAgeRefreshMs);
    connect(&m_ageTimer, &QTimer::timeout, this, &PendingBoardModel::liveValuesChanged);
    m_ageTimer.start();
    connect(m_clock, &Clock::advanced, this, &PendingBoardModel::liveValuesChanged);

    using tracking::TransactionTracker;
    connect(tracker, &TransactionTracker::tracked, this, &PendingBoardModel::markDirty);
    connect(tracker, &TransactionTracker::transitioned, this,
            [this](const TrackedTransaction& record) { markDirty(record.id); });
    // An attempt changes the count and the last node without a transition; the Rebroadcast
    // event comes once the record holding them is stored.
    connect(tracker, &TransactionTracker::incident, this, [this](const IncidentEvent& event) {
        if (!event.txId.isEmpty())
            markDirty(event.txId);
    });
    connect(tracker, &TransactionTracker::attemptFinished, this,
            [this](const QString& id) { markDirty(id); });
    connect(tracker, &TransactionTracker::blockHeightObserved, this,
            &PendingBoardModel::liveValuesChanged);
    connect(tracker, &QObject::destroyed, this, [this] {
        m_tracker = nullptr;
        m_dirty.clear();
        m_dirtyOrder.clear();
    });
    adoptAll();
}

PendingBoardModel::~PendingBoardModel() = default;

void PendingBoardModel::adoptAll()
{
    QList<TrackedTransaction> records = m_tracker->transactions();
    std::sort(records.begin(), records.end(),
              [](const TrackedTransaction& a, const TrackedTransaction& b) {
                  return a.createdMs != b.createdMs ? a.createdMs < b.createdMs : a.id < b.id;
              });
    m_cards.reserve(records.size());
    m_rowOf.reserve(records.size());
    for (TrackedTransaction& record : records) {
        const BoardColumn column = boardColumnOf(record.state);
        m_rowOf.insert(record.id, int(m_cards.size()));
        ++m_counts[std::size_t(column)];
        m_cards.append({std::move(record), column});
    }
}

void PendingBoardModel::setAgeRefreshInterval(int ms)
{
    m_ageTimer.stop();
    if (ms > 0) {
        m_ageTimer.setInterval(ms);
        m_ageTimer.start();
    }
}

void PendingBoardModel::markDirty(const QString& id)
{
    if (!m_tracker || m_dirty.contains(id))
        return;
    m_dirty.insert(id);
    m_dirtyOrder.append(id);
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void PendingBoardModel::flush()
{
    m_flushTimer.stop();
    if (m_dirtyOrder.isEmpty() || !m_tracker)
        return;
    const QList<QString> ids = std::exchange(m_dirtyOrder, {});
    m_dirty.clear();

    QList<TrackedTransaction> added;
    int firstChanged = int(m_cards.size());
    int lastChanged = -1;
    QList<std::pair<int, TrackedTransaction>> changed;
    for (const QString& id : ids) {
        std::optional<TrackedTransaction> fresh = m_tracker->transaction(id);
        if (!fresh)
            continue;
        const auto known = m_rowOf.constFind(id);
        if (known == m_rowOf.cend()) {
            added.append(std::move(*fresh));
            continue;
        }
        const int row = *known;
        if (sameCard(m_cards[row].record, *fresh))
            continue;
        firstChanged = std::min(firstChanged, row);
        lastChanged = std::max(lastChanged, row);
        changed.append({row, std::move(*fresh)});
    }

    if (!changed.isEmpty()) {
        QList<quint64> mask(lastChanged - firstChanged + 1, 0);
        for (auto& [row, record] : changed) {
            Card& card = m_cards[row];
            const BoardColumn column = boardColumnOf(record.state);
            --m_counts[std::size_t(card.column)];
            ++m_counts[std::size_t(column)];
            card.column = column;
            card.record = std::move(record);
            mask[row - firstChanged] = 1;
        }
        emitChangedRuns(this, firstChanged, mask);
    }
    if (!added.isEmpty()) {
        const int first = int(m_cards.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        for (TrackedTransaction& record : added) {
            const BoardColumn column = boardColumnOf(record.state);
            m_rowOf.insert(record.id, int(m_cards.size()));
            ++m_counts[std::size_t(column)];
            m_cards.append({std::move(record), column});
        }
        endInsertRows();
    }
}

int PendingBoardModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_cards.size());
}

int PendingBoardModel::rowOf(const QString& id) const
{
    return m_rowOf.value(id, -1);
}

QString PendingBoardModel::idAt(int row) const
{
    return row >= 0 && row < m_cards.size() ? m_cards[row].record.id : QString();
}

int PendingBoardModel::count(BoardColumn column) const
{
    return m_counts[std::size_t(column)];
}

qint64 PendingBoardModel::nowMs() const
{
    return m_clock->utcNow().toMSecsSinceEpoch();
}

ExpiryOutlook PendingBoardModel::outlookOf(const TrackedTransaction& record,
                                           std::optional<qint64>* blocksLeft) const
{
    *blocksLeft = std::nullopt;
    if (!chain::familyRules(record.family).expiresAtBlockHeight() ||
        !tracking::isPending(record.state))
        return ExpiryOutlook::NotApplicable;
    if (!record.lastValidBlockHeight)
        return ExpiryOutlook::Undecidable;
    const std::optional<qint64> height =
        m_tracker ? m_tracker->blockHeight(record.network) : std::nullopt;
    if (!height)
        return ExpiryOutlook::HeightUnknown;
    *blocksLeft = tracking::blocksLeft(record, height);
    return **blocksLeft >= 0 ? ExpiryOutlook::BlocksLeft : ExpiryOutlook::PastLastValid;
}

QString PendingBoardModel::ageText(const Card& card) const
{
    if (card.column == BoardColumn::Pending)
        return QStringLiteral("age ") + display::duration(nowMs() - card.record.createdMs);
    return display::age(nowMs() - card.record.stateSinceMs);
}

QString PendingBoardModel::expiryText(const TrackedTransaction& record) const
{
    std::optional<qint64> left;
    switch (outlookOf(record, &left)) {
    case ExpiryOutlook::NotApplicable:
        return {};
    case ExpiryOutlook::Undecidable:
        return QStringLiteral("expiry undecidable");
    case ExpiryOutlook::HeightUnknown:
        return QStringLiteral("blocks left unknown");
    case ExpiryOutlook::BlocksLeft:
        return display::counted(*left, QStringLiteral("block"), QStringLiteral("blocks")) +
               QStringLiteral(" left");
    case ExpiryOutlook::PastLastValid:
        return QStringLiteral("past last valid height");
    }
    Q_UNREACHABLE();
}

QVariant PendingBoardModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Card& card = m_cards[index.row()];
    const TrackedTransaction& record = card.record;
    switch (role) {
    case Qt::DisplayRole:
    case ShortIdRole:
        return record.shortId();
    case Qt::ToolTipRole: {
        QString tip = QStringLiteral("%1\n%2 on %3")
                          .arg(record.id, tracking::txStateWord(record.state), record.network);
        if (!record.error.isEmpty())
            tip += u'\n' + record.error;
        return tip;
    }
    case IdRole:
        return record.id;
    case NetworkRole:
        return record.network;
    case IntentRole:
        return record.intentId;
    case FamilyRole:
        return chain::familyRules(record.family).displayName();
    case StateRole:
        return int(record.state);
    case StateWordRole:
        return tracking::txStateWord(record.state);
    case StateIconRole:
        return txStateIconName(record.state);
    case GroupRole:
        return int(tracking::stateGroup(record.state));
    case ColumnRole:
        return int(card.column);
    case CreatedMsRole:
        return record.createdMs;
    case StateSinceMsRole:
        return record.stateSinceMs;
    case AgeMsRole:
        return nowMs() -
               (card.column == BoardColumn::Pending ? record.createdMs : record.stateSinceMs);
    case AgeTextRole:
        return ageText(card);
    case AttemptsRole:
        return record.attempts;
    case LastNodeRole:
        return record.lastNode;
    case LastValidBlockHeightRole:
        return optionalValue(record.lastValidBlockHeight);
    case ExpiryOutlookRole:
    case BlocksLeftRole:
    case BlocksLeftFractionRole: {
        std::optional<qint64> left;
        const ExpiryOutlook outlook = outlookOf(record, &left);
        if (role == ExpiryOutlookRole)
            return int(outlook);
        if (role == BlocksLeftRole)
            return optionalValue(left);
        if (!left)
            return {};
        return std::clamp(double(*left) / double(solanaBlockhashValidityBlocks), 0.0, 1.0);
    }
    case ExpiryTextRole:
        return expiryText(record);
    case WatchOnlyRole:
        return record.isWatchOnly();
    case ErrorRole:
        return record.error;
    case LandedTextRole: {
        if (!record.confirmedMs)
            return QString();
        QString text = QStringLiteral("landed");
        if (record.confirmedHeight)
            text += QStringLiteral(" in %1 %2")
                        .arg(chain::familyRules(record.family).heightUnit())
                        .arg(*record.confirmedHeight);
        return text;
    }
    case SortRole:
    case BoardOrderRole:
        return card.column == BoardColumn::Pending ? record.createdMs : -record.stateSinceMs;
    default:
        return {};
    }
}

QHash<int, QByteArray> PendingBoardModel::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(IdRole, "id");
    names.insert(ShortIdRole, "shortId");
    names.insert(NetworkRole, "network");
    names.insert(IntentRole, "intent");
    names.insert(FamilyRole, "family");
    names.insert(StateRole, "state");
    names.insert(StateWordRole, "stateWord");
    names.insert(ColumnRole, "column");
    names.insert(AgeTextRole, "age");
    names.insert(AttemptsRole, "attempts");
    names.insert(LastNodeRole, "lastNode");
    names.insert(BlocksLeftRole, "blocksLeft");
    names.insert(ExpiryTextRole, "expiry");
    return names;
}

} // namespace switchyard
