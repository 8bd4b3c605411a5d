#pragma once

#include "tracking/trackingstore.h"

#include <QString>
#include <QWizard>
#include <optional>

namespace switchyard {
class PoolManager;
namespace tracking {
class ConfirmationRun;
class TransactionTracker;
} // namespace tracking
} // namespace switchyard

namespace switchyard::ui {

// The confirmation wizard: pick a tracked transaction → every status node's answer → the
// expiry/supersession gate with its evidence → (only when the gate is open) the identical
// stored bytes sent again after an explicit confirmation → watch → the outcome, written to the
// timeline. Every step is a core operation (tracking::ConfirmationRun); the pages only show
// them and ask. For a transaction that can no longer land nothing on any page sends.
class ConfirmationWizard : public QWizard
{
    Q_OBJECT
public:
    enum PageId
    {
        PickPage,
        StatusPage,
        GatePage,
        SendPage,
        WatchPage,
        OutcomePage,
    };

    // The tracker and the pools must outlive the wizard. `id` preselects a transaction.
    ConfirmationWizard(tracking::TransactionTracker* tracker, PoolManager* pools,
                       const QString& id = {}, QWidget* parent = nullptr);
    ~ConfirmationWizard() override;

    tracking::TransactionTracker* tracker() const { return m_tracker; }
    // The run for the picked transaction (recreated when the pick changes); null before.
    tracking::ConfirmationRun* run() const { return m_run; }
    tracking::ConfirmationRun* startRun(const QString& id);
    // What was done, for the outcome written to the timeline.
    void noteStep(const QString& step);
    QString steps() const;
    // The last attempt of the send this run made, if it made one: the outcome says what this
    // run did, not only where the transaction stands.
    void noteSend(const tracking::AttemptRecord& attempt) { m_send = attempt; }
    const std::optional<tracking::AttemptRecord>& send() const { return m_send; }

    int nextId() const override;

Q_SIGNALS:
    void showInTimelineRequested(const QString& id);

private:
    // A page that shows a state looks it up again when Back shows it again: what it said
    // before a send of this run is no longer true, and Next must not offer a send on it.
    void lookAgainWhenBackOn(int id);

    tracking::TransactionTracker* m_tracker;
    PoolManager* m_pools;
    tracking::ConfirmationRun* m_run = nullptr;
    QStringList m_steps;
    std::optional<tracking::AttemptRecord> m_send;
    int m_shownId = -1;
};

} // namespace switchyard::ui
