#pragma once

#include <QWizardPage>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace switchyard {
class LookupAnswerModel;
}

namespace switchyard::ui {

class ConfirmationWizard;

// Which transaction: every tracked one, those that can still change first.
class PickTransactionPage : public QWizardPage
{
    Q_OBJECT
public:
    PickTransactionPage(ConfirmationWizard* wizard, const QString& preselected);

    void initializePage() override;
    bool validatePage() override;
    bool isComplete() const override;
    QString pickedId() const;

private:
    void showPicked();
    // The picker's lines and the details as the tracker has them now.
    void refreshFromTracker();

    ConfirmationWizard* m_wizard;
    QString m_preselected;
    QComboBox* m_picker;
    QLabel* m_details;
};

// Every status node of its network, asked directly; each answer with the slot or block it
// speaks for, as it arrives.
class NodeStatusPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit NodeStatusPage(ConfirmationWizard* wizard);

    void initializePage() override;
    bool isComplete() const override;

private:
    ConfirmationWizard* m_wizard;
    LookupAnswerModel* m_answers;
    QLabel* m_summary;
    QTableView* m_table;
    bool m_done = false;
};

// The tracker's lookup and the decision it allows, with the evidence.
class GatePage : public QWizardPage
{
    Q_OBJECT
public:
    explicit GatePage(ConfirmationWizard* wizard);

    void initializePage() override;
    bool isComplete() const override;

private:
    ConfirmationWizard* m_wizard;
    QLabel* m_icon;
    QLabel* m_headline;
    QLabel* m_evidence;
    bool m_done = false;
};

// The stored bytes checked against the id, an explicit yes, then one send of those bytes.
class SendPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit SendPage(ConfirmationWizard* wizard);

    void initializePage() override;
    bool isComplete() const override;
    bool sent() const { return m_sent; }
    QPushButton* sendButton() const { return m_send; }
    QCheckBox* confirmBox() const { return m_confirm; }

private:
    void send();
    void updateButton();
    bool m_firstSend = true;

    ConfirmationWizard* m_wizard;
    QLabel* m_bytes;
    QCheckBox* m_confirm;
    QPushButton* m_send;
    QLabel* m_attempts;
    bool m_bytesOk = false;
    bool m_sending = false;
    bool m_sent = false;
};

// Looks it up again every two seconds until it lands or the gate closes for good.
class WatchPage : public QWizardPage
{
    Q_OBJECT
public:
    explicit WatchPage(ConfirmationWizard* wizard);

    void initializePage() override;
    void cleanupPage() override;
    bool isComplete() const override;

private:
    ConfirmationWizard* m_wizard;
    QLabel* m_state;
    QLabel* m_progress;
    QPushButton* m_stop;
    bool m_done = false;
};

// Where it ended, written to the timeline once.
class OutcomePage : public QWizardPage
{
    Q_OBJECT
public:
    explicit OutcomePage(ConfirmationWizard* wizard);

    void initializePage() override;

private:
    ConfirmationWizard* m_wizard;
    QLabel* m_icon;
    QLabel* m_outcome;
    QLabel* m_explanation;
    QLabel* m_written;
    bool m_recorded = false;
};

} // namespace switchyard::ui
