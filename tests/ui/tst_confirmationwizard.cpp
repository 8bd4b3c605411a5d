// The confirmation wizard against the simulator and a real store: a lost send is rebroadcast
// once after an explicit yes and watched until it lands; an expired transaction gets the
// explanation and no page that could send, in the words `switchyard confirm` says for it.
#include "commandrunner.h"
#include "config/configwriter.h"
#include "confirmation/confirmationpages.h"
#include "confirmation/confirmationwizard.h"
#include "testfiles.h"
#include "tracking/confirmation.h"
#include "trackingfixture.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>

using namespace switchyard;
using namespace switchyard::testing;
using namespace switchyard::tracking;
using switchyard::ui::ConfirmationWizard;

namespace {

QString textOf(const QWidget* root, const char* name)
{
    const auto* label = root->findChild<QLabel*>(QLatin1String(name));
    return label ? label->text() : QString();
}

bool nextEnabled(const ConfirmationWizard& wizard)
{
    return wizard.button(QWizard::NextButton)->isEnabled() ||
           wizard.button(QWizard::FinishButton)->isEnabled();
}

// A Solana transfer that never lands, tracked, with the node past its lastValidBlockHeight: the
// wizard's look finds it Expired.
QString trackExpiredTransfer(TrackingFixture& f, quint64 lamports)
{
    const auto signed_ = f.signSolana(lamports);
    f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
    const QString id = f.trackSolana(signed_).id;
    const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
    while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
        f.pools.cluster.advance(1);
    return id;
}

// Shows the wizard and walks it past its look to the gate page, the gate decided.
bool walkToTheGate(ConfirmationWizard& wizard)
{
    wizard.show();
    wizard.next();
    if (!QTest::qWaitFor([&] { return nextEnabled(wizard); }, kWaitMs))
        return false;
    wizard.next();
    return wizard.currentId() == int(ConfirmationWizard::GatePage) &&
           QTest::qWaitFor([&] { return nextEnabled(wizard); }, kWaitMs);
}

} // namespace

class TestConfirmationWizard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lostSendIsRebroadcastOnceAfterAYes()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        f.trackSolana(f.signSolana(1)); // another one, not picked
        const QString id = f.trackSolana(f.signSolana(2)).id;

        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        wizard.show();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::PickPage));
        QVERIFY2(textOf(&wizard, "confirmRecord").contains(id),
                 qPrintable(textOf(&wizard, "confirmRecord")));

        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::StatusPage));
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        const auto* answers = wizard.findChild<QTableView*>(QStringLiteral("confirmNodeAnswers"));
        QCOMPARE(answers->model()->rowCount(), 2);

        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::GatePage));
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        // Never sent by Switchyard: the words say so, never "again".
        const QString headline = textOf(&wizard, "confirmGateHeadline");
        QVERIFY2(headline.contains(QStringLiteral("may be sent")), qPrintable(headline));
        QVERIFY2(headline.contains(QStringLiteral("not sent yet")), qPrintable(headline));
        QVERIFY2(!headline.contains(QStringLiteral("again")), qPrintable(headline));
        QVERIFY(textOf(&wizard, "confirmGateEvidence").contains("blocks left"));

        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::SendPage));
        auto* page = qobject_cast<ui::SendPage*>(wizard.currentPage());
        const QString bytes = textOf(&wizard, "confirmBytes");
        QCOMPARE(bytes.count(id), 2); // computed now, and tracked: the same
        QVERIFY(bytes.contains(QStringLiteral("Unchanged")));
        QVERIFY(!page->sendButton()->isEnabled()); // not without the yes
        page->confirmBox()->setChecked(true);
        QVERIFY(page->sendButton()->isEnabled());
        page->sendButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(page->sent(), kWaitMs);
        QVERIFY(textOf(&wizard, "confirmAttempts").contains("accepted"));
        QVERIFY(!page->sendButton()->isEnabled()); // once
        QCOMPARE(f.totalSends(id), 1);
        // A first send is recorded as a send, not as a rebroadcast.
        QTRY_COMPARE_WITH_TIMEOUT(f.storedEvents(id, QStringLiteral("send")).size(), 1, kWaitMs);
        QCOMPARE(f.storedEvents(id, QStringLiteral("rebroadcast")).size(), 0);

        QTimer blocks;
        QObject::connect(&blocks, &QTimer::timeout, [&f] { f.pools.cluster.advance(1); });
        blocks.start(100);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::WatchPage));
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        blocks.stop();
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::OutcomePage));
        QVERIFY2(textOf(&wizard, "confirmOutcome").startsWith(QStringLiteral("Landed")),
                 qPrintable(textOf(&wizard, "confirmOutcome")));
        QTRY_COMPARE_WITH_TIMEOUT(textOf(&wizard, "confirmWritten"),
                                  QStringLiteral("Written to the timeline."), kWaitMs);
        const QStringList written = f.storedEvents(id, QStringLiteral("confirmation"));
        QCOMPARE(written.size(), 1);
        QVERIFY2(written[0].contains(QStringLiteral("sent once")), qPrintable(written[0]));
        QCOMPARE(f.totalSends(id), 1);
    }

    // Back after a send shows the gate looked up again: what it said before the send ("may be
    // sent") is no longer true, and Next never leads to a send the gate would refuse. The
    // outcome says what this run did.
    void backAfterASendLooksAgain()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a"), QStringLiteral("b")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(3)).id;
        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        wizard.show();
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        QVERIFY(textOf(&wizard, "confirmGateHeadline").contains(QStringLiteral("may be sent")));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::SendPage));
        auto* page = qobject_cast<ui::SendPage*>(wizard.currentPage());
        page->confirmBox()->setChecked(true);
        page->sendButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(page->sent(), kWaitMs);
        QCOMPARE(f.totalSends(id), 1);
        // The page no longer says what was true before its own send.
        QVERIFY2(page->title().startsWith(QStringLiteral("Sent once, to ")),
                 qPrintable(page->title()));
        QVERIFY2(!page->subTitle().contains(QStringLiteral("Imported")),
                 qPrintable(page->subTitle()));
        // It lands while the send page is still shown (the tracker's own poll sees it).
        for (int block = 0; block < 40 && !isLanded(f.state(id)); ++block) {
            f.pools.cluster.advance(1);
            f.poll();
        }
        QVERIFY(isLanded(f.state(id)));

        wizard.back();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::GatePage));
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        const QString headline = textOf(&wizard, "confirmGateHeadline");
        QVERIFY2(!headline.contains(QStringLiteral("may be sent")), qPrintable(headline));
        QVERIFY2(!headline.contains(QStringLiteral("not sent yet")), qPrintable(headline));
        wizard.next();
        QVERIFY2(wizard.currentId() != int(ConfirmationWizard::SendPage),
                 "Next after a send offered the send page again");
        QCOMPARE(f.totalSends(id), 1);
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::OutcomePage));
        const QString explanation = textOf(&wizard, "confirmExplanation");
        QVERIFY2(explanation.startsWith(QStringLiteral("Sent once to ")), qPrintable(explanation));
        QVERIFY2(explanation.contains(QStringLiteral(", then ")), qPrintable(explanation));
        QVERIFY2(!explanation.contains(QStringLiteral("nothing to send")), qPrintable(explanation));
        QTRY_COMPARE_WITH_TIMEOUT(textOf(&wizard, "confirmWritten"),
                                  QStringLiteral("Written to the timeline."), kWaitMs);
        const QStringList written = f.storedEvents(id, QStringLiteral("confirmation"));
        QCOMPARE(written.size(), 1);
        QVERIFY2(!written[0].contains(QStringLiteral("not sent: not sent")),
                 qPrintable(written[0]));
        QCOMPARE(f.totalSends(id), 1);
    }

    // Page 1 shows the transaction as it is now, not as it was when the page opened.
    void pickPageFollowsTheLiveState()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = f.trackSolana(f.signSolana(4)).id;
        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        wizard.show();
        QVERIFY2(textOf(&wizard, "confirmRecord").contains(QStringLiteral("Imported")),
                 qPrintable(textOf(&wizard, "confirmRecord")));
        QCOMPARE(f.send(id).result, SendReport::Result::Attempted);
        QTRY_VERIFY2_WITH_TIMEOUT(
            textOf(&wizard, "confirmRecord").contains(QStringLiteral("Submitted")),
            qPrintable(textOf(&wizard, "confirmRecord")), kWaitMs);
        const auto* picker = wizard.findChild<QComboBox*>(QStringLiteral("confirmPicker"));
        QVERIFY2(picker->currentText().contains(QStringLiteral("Submitted")),
                 qPrintable(picker->currentText()));
    }

    // Walked through (back and forth over the gate) when it had already expired on chain: the
    // tracker's own state change is the alarm; the walk is information, and names its gate once.
    // Return on the last page finishes the wizard; "Show in timeline" only on a click.
    void expiredWalkIsInformationAndReturnFinishes()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(5);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);

        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        QSignalSpy showInTimeline(&wizard, &ConfirmationWizard::showInTimelineRequested);
        wizard.show();
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        wizard.back();
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::GatePage));
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::OutcomePage));
        QTRY_COMPARE_WITH_TIMEOUT(f.storedEvents(id, QStringLiteral("confirmation")).size(), 1,
                                  kWaitMs);
        const QString written = f.storedEvents(id, QStringLiteral("confirmation")).constFirst();
        QCOMPARE(written.count(QStringLiteral("gate expired")), 1);
        QCOMPARE(f.storedSeverities(id, QStringLiteral("confirmation")),
                 QStringList{QStringLiteral("info")});
        QCOMPARE(f.storedSeverities(id, QStringLiteral("transaction-state")).count("critical"), 1);

        auto* show = wizard.findChild<QPushButton*>(QStringLiteral("confirmShowInTimeline"));
        show->setFocus(Qt::TabFocusReason); // where the operator's focus may well be
        QTest::keyClick(show, Qt::Key_Return);
        QCOMPARE(showInTimeline.size(), 0);
        QVERIFY(!wizard.isVisible());
        QCOMPARE(wizard.result(), int(QDialog::Accepted));
    }

    // One decision, one wording: for the same transaction, the wizard's gate, the gate and the
    // refused send of `switchyard confirm --rebroadcast`, and the board's disabled button all say
    // the words of the one gate.
    void wizardAndConfirmCommandSayOneDecision()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = trackExpiredTransfer(f, 4);
        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        QVERIFY(walkToTheGate(wizard));
        const QString wizardWords = textOf(&wizard, "confirmGateHeadline");
        QVERIFY2(wizardWords.contains(QStringLiteral("sending system")), qPrintable(wizardWords));

        const QString config =
            writeFile(f.dir, QStringLiteral("config.json"), configToJson(f.pools.config));
        const CommandRun run = runSwitchyard(
            {QStringLiteral("confirm"), id, QStringLiteral("--rebroadcast"),
             QStringLiteral("--yes"), QStringLiteral("--json"), QStringLiteral("--config"), config,
             QStringLiteral("--db"), f.storeLocation});
        QVERIFY2(run.exitCode == 2, QByteArray(run.out + run.err).constData()); // failed
        QString gateWords;
        QString sendWords;
        for (const QByteArray& line : run.lines()) {
            const QJsonObject step = QJsonDocument::fromJson(line).object();
            if (step.value(QStringLiteral("step")) == QStringLiteral("gate"))
                gateWords = step.value(QStringLiteral("text")).toString();
            if (step.value(QStringLiteral("step")) == QStringLiteral("send"))
                sendWords = step.value(QStringLiteral("text")).toString();
        }
        QCOMPARE(gateWords, wizardWords);
        QCOMPARE(sendWords, QStringLiteral("not sent: ") + wizardWords);
        const ConfirmOffer offer = confirmOffer(*f.tracker->transaction(id));
        QVERIFY(!offer.enabled);
        QCOMPARE(offer.reason, wizardWords);
        QCOMPARE(f.totalSends(id), 0);
    }

    void expiredOffersNothingThatSends()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const QString id = trackExpiredTransfer(f, 3);
        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        QVERIFY(walkToTheGate(wizard));
        QVERIFY2(textOf(&wizard, "confirmGateHeadline").contains(QStringLiteral("sending system")),
                 qPrintable(textOf(&wizard, "confirmGateHeadline")));
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::OutcomePage));
        QVERIFY(!wizard.visitedIds().contains(ConfirmationWizard::SendPage));
        QVERIFY(textOf(&wizard, "confirmOutcome").startsWith(QStringLiteral("Cannot land")));
        QVERIFY2(textOf(&wizard, "confirmExplanation").contains(QStringLiteral("sending system")),
                 qPrintable(textOf(&wizard, "confirmOutcome") + "/" +
                            textOf(&wizard, "confirmExplanation")));
        for (const QPushButton* button : wizard.currentPage()->findChildren<QPushButton*>())
            QVERIFY2(!button->text().contains(QStringLiteral("Send"), Qt::CaseInsensitive),
                     qPrintable(button->text()));
        QTRY_COMPARE_WITH_TIMEOUT(f.storedEvents(id, QStringLiteral("confirmation")).size(), 1,
                                  kWaitMs);
        QCOMPARE(f.totalSends(id), 0);
    }
};

QTEST_MAIN(TestConfirmationWizard)
#include "tst_confirmationwizard.moc"
