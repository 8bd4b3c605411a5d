// The confirmation wizard against the simulator and a real store: a lost send is rebroadcast
// once after an explicit yes and watched until it lands; an expired transaction gets the
// explanation and no page that could send.
#include "confirmation/confirmationpages.h"
#include "confirmation/confirmationwizard.h"
#include "tracking/confirmation.h"
#include "trackingfixture.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QLabel>
#include <QPushButton>
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
        QVERIFY2(textOf(&wizard, "confirmGateHeadline").contains(QStringLiteral("may be sent")),
                 qPrintable(textOf(&wizard, "confirmGateHeadline")));
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
        QVERIFY2(written[0].contains(QStringLiteral("rebroadcast")), qPrintable(written[0]));
        QCOMPARE(f.totalSends(id), 1);
    }

    void expiredOffersNothingThatSends()
    {
        TrackingFixture f(ChainFamily::Solana, {QStringLiteral("a")});
        QVERIFY(f.start());
        const auto signed_ = f.signSolana(3);
        f.solana().setScriptedOutcome(signed_.signature, sim::ScriptedOutcome::NeverLands);
        const QString id = f.trackSolana(signed_).id;
        const sim::SimulatedNode* a = f.pools.simNode(QStringLiteral("a"));
        while (a->blockHeight(sim::Commitment::Confirmed) <= signed_.lastValidBlockHeight)
            f.pools.cluster.advance(1);

        ConfirmationWizard wizard(f.tracker.get(), &f.pools.manager, id);
        wizard.show();
        wizard.next();
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
        wizard.next();
        QCOMPARE(wizard.currentId(), int(ConfirmationWizard::GatePage));
        QTRY_VERIFY_WITH_TIMEOUT(nextEnabled(wizard), kWaitMs);
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
