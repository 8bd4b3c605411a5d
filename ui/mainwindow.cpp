#include "mainwindow.h"

#include "emptystate.h"
#include "util/settings.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QLabel>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>

namespace switchyard::ui {

MainWindow::MainWindow(Config config, ConfigSource source, Settings* settings, QWidget* parent)
    : QMainWindow(parent)
    , m_config(std::move(config))
    , m_source(std::move(source))
    , m_settings(settings)
{
    setWindowIcon(QIcon(QStringLiteral(":/switchyard/switchyard.svg")));
    setWindowTitle(m_source.demo ? tr("Switchyard — demo (simulated nodes)") : tr("Switchyard"));
    buildToolbar();
    buildViews();

    QString where;
    if (m_source.demo)
        where = tr("Demo: a simulated cluster on 127.0.0.1, no internet and no keys");
    else if (m_source.path.isEmpty())
        where = tr("No configuration file yet");
    else
        where = tr("Configuration: %1").arg(m_source.path);
    statusBar()->addWidget(new QLabel(where, this));

    restoreLayout();
}

void MainWindow::buildToolbar()
{
    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setMovable(false);

    toolbar->addWidget(new QLabel(tr("Network "), toolbar));
    m_networkSelector = new QComboBox(toolbar);
    m_networkSelector->setObjectName(QStringLiteral("networkSelector"));
    m_networkSelector->setMinimumContentsLength(18);
    if (m_config.networks.isEmpty()) {
        m_networkSelector->addItem(tr("No networks configured"));
        m_networkSelector->setEnabled(false);
    } else {
        m_networkSelector->addItem(tr("All networks"));
        for (const NetworkConfig& network : std::as_const(m_config.networks))
            m_networkSelector->addItem(tr("%1 (%2)").arg(network.name, familyName(network.family)),
                                       network.name);
    }
    toolbar->addWidget(m_networkSelector);
}

void MainWindow::buildViews()
{
    m_views = new QTabWidget(this);
    m_views->setObjectName(QStringLiteral("views"));
    m_views->setDocumentMode(true);

    qsizetype nodeCount = 0;
    for (const NetworkConfig& network : std::as_const(m_config.networks))
        nodeCount += network.nodes.size();

    const QString poolExplanation =
        m_config.networks.isEmpty()
            ? tr("Start with “switchyard --demo” to watch a simulated pool, or describe your "
                 "RPC providers in a configuration file (see docs/configuration.md).")
            : tr("%n node(s) configured in %1. Their health, height and lag appear here once "
                 "probing runs.",
                 nullptr, int(nodeCount))
                  .arg(tr("%n network(s)", nullptr, int(m_config.networks.size())));

    m_views->addTab(new EmptyState(m_config.networks.isEmpty() ? tr("No nodes yet")
                                                               : tr("Nodes not probed yet"),
                                   poolExplanation, m_views),
                    tr("Nodes"));
    m_views->addTab(new EmptyState(tr("No failovers recorded"),
                                   tr("Every call that moves to another node is counted here per "
                                      "RPC method, with its cause."),
                                   m_views),
                    tr("Failovers"));
    m_views->addTab(new EmptyState(tr("No lag history"),
                                   tr("Slot and block lag of every node over the last 15 minutes "
                                      "is drawn here."),
                                   m_views),
                    tr("Lag"));
    m_views->addTab(new EmptyState(tr("No tracked transactions"),
                                   tr("Transactions imported by their signed bytes are followed "
                                      "here until they land, expire or are superseded."),
                                   m_views),
                    tr("Pending"));
    m_views->addTab(new EmptyState(tr("No incidents"),
                                   tr("Every state change, failover and rebroadcast lands on this "
                                      "timeline, ready to export as CSV."),
                                   m_views),
                    tr("Timeline"));
    setCentralWidget(m_views);
}

void MainWindow::restoreLayout()
{
    if (!restoreGeometry(m_settings->windowGeometry()))
        resize(1280, 800);
    restoreState(m_settings->windowState());
    m_views->setCurrentIndex(qBound(0, m_settings->currentView(), m_views->count() - 1));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(saveState());
    m_settings->setCurrentView(m_views->currentIndex());
    QMainWindow::closeEvent(event);
}

} // namespace switchyard::ui
