#pragma once

#include "models/modelroles.h"
#include "tracking/trackedtransaction.h"

#include <QAbstractListModel>
#include <QHash>
#include <QSet>
#include <QTimer>
#include <array>
#include <optional>

namespace switchyard {

class Clock;

namespace tracking {
class TransactionTracker;
} // namespace tracking

// The board's four columns, one per state group as operators read them: landed is split in
// two because "confirmed" can still be rolled back and "finalized" cannot.
enum class BoardColumn
{
    Pending,   // Imported, Submitted, TransportUnknown
    Confirmed, // landed, not final yet
    Finalized,
    Failed, // ExecutionFailed, Expired, Superseded
};
inline constexpr int boardColumnCount = 4;

BoardColumn boardColumnOf(tracking::TxState state);
QString boardColumnKey(BoardColumn column);      // "pending", "confirmed", ...
QString boardColumnTitle(BoardColumn column);    // "Pending", "Confirmed", ...
QString boardColumnIconName(BoardColumn column); // theme icon name
QString txStateIconName(tracking::TxState state);

// Whether a card can say how many blocks it has left before its blockhash expires.
enum class ExpiryOutlook
{
    NotApplicable, // EVM, or no longer pending: expiry does not matter any more
    Undecidable,   // Solana without lastValidBlockHeight: it can never be declared expired
    HeightUnknown, // no status node has given this network's block height yet
    BlocksLeft,    // lastValidBlockHeight - block height >= 0
    PastLastValid, // the height passed lastValidBlockHeight; expired only after a final lookup
};

// A Solana blockhash is valid for 150 blocks: a fresh transaction's full bar.
inline constexpr qint64 solanaBlockhashValidityBlocks = 150;

// Every tracked transaction of a TransactionTracker as one card (a row of a list), in the
// order they became known. Changes are gathered and merged once per turn of the event loop:
// new cards in one row insert, changed cards in ranged dataChanged, never a reset, so
// selection and scroll survive. A row is found from its id in O(1).
// Age and blocks left are derived when asked (from the Clock and the tracker's latest block
// height): instead of a dataChanged over every card each second or each block, the model
// emits liveValuesChanged() and views repaint the cards they show.
class PendingBoardModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role
    {
        IdRole = FirstModelSpecificRole, // the full signature / hash
        ShortIdRole,                     // also Qt::DisplayRole
        IntentRole,                      // empty when the sending system gave none
        FamilyRole,                      // "Solana" / "EVM"
        StateRole,                       // tracking::TxState as int
        StateWordRole,                   // "Transport unknown"
        StateIconRole,                   // theme icon name of the state
        GroupRole,                       // tracking::TxStateGroup as int
        ColumnRole,                      // BoardColumn as int
        CreatedMsRole,                   // UTC ms
        StateSinceMsRole,                // UTC ms
        AgeMsRole,                       // now - created (pending) or now - state since
        AgeTextRole,                     // "pending 4 min", "confirmed 12 s ago"
        AttemptsRole,                    // sends made by Switchyard
        LastNodeRole,
        LastValidBlockHeightRole, // qint64, invalid when none
        ExpiryOutlookRole,        // ExpiryOutlook as int
        BlocksLeftRole,           // qint64, invalid unless the outlook is BlocksLeft/Past...
        BlocksLeftFractionRole,   // double 0..1 of solanaBlockhashValidityBlocks
        ExpiryTextRole,           // "63 blocks left", "expiry cannot be decided", ...
        WatchOnlyRole,            // no bytes: Switchyard never sends it
        ErrorRole,                // why it failed, when it did
        LandedTextRole,           // "landed in slot 123"; empty before it landed
        // The column's order, ascending: pending oldest first (the worrying ones on top),
        // the others newest change first.
        BoardOrderRole,
    };

    PendingBoardModel(tracking::TransactionTracker* tracker, Clock* clock,
                      QObject* parent = nullptr);
    ~PendingBoardModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    int rowOf(const QString& id) const; // -1 when not on the board
    QString idAt(int row) const;
    int count(BoardColumn column) const;
    tracking::TransactionTracker* tracker() const { return m_tracker; }
    Clock* clock() const { return m_clock; }

    // Merges every change announced so far now, instead of on the next turn of the event loop.
    void flush();
    bool hasPendingChanges() const { return !m_dirty.isEmpty(); }

    // How often ages move (liveValuesChanged); 0 stops it (tests move the clock themselves).
    void setAgeRefreshInterval(int ms);

Q_SIGNALS:
    // Ages or a network's block height moved: nothing stored changed, cards read differently.
    void liveValuesChanged();

private:
    struct Card
    {
        tracking::TrackedTransaction record;
        BoardColumn column = BoardColumn::Pending;
    };

    void markDirty(const QString& id);
    void adoptAll();
    qint64 nowMs() const;
    ExpiryOutlook outlookOf(const tracking::TrackedTransaction& record,
                            std::optional<qint64>* blocksLeft) const;
    QString ageText(const Card& card) const;
    QString expiryText(const tracking::TrackedTransaction& record) const;

    tracking::TransactionTracker* m_tracker;
    Clock* m_clock;
    QList<Card> m_cards;
    QHash<QString, int> m_rowOf;
    QSet<QString> m_dirty;
    QList<QString> m_dirtyOrder; // new ids go in in the order they were announced
    std::array<int, boardColumnCount> m_counts{};
    QTimer m_flushTimer;
    QTimer m_ageTimer;
};

} // namespace switchyard
