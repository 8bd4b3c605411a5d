#include "failoversview.h"

#include "appearance.h"
#include "charts/failoverchart.h"
#include "emptystate.h"
#include "models/failovertablemodel.h"
#include "networkfilterproxy.h"

#include <QButtonGroup>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

const qint64 windows[] = {FailoverTableModel::fiveMinutesMs, FailoverTableModel::oneHourMs,
                          FailoverTableModel::oneDayMs};

} // namespace

FailoversView::FailoversView(FailoverTableModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_tableProxy(new NetworkFilterProxy(this))
    , m_windows(new QButtonGroup(this))
    , m_summary(new QLabel(this))
    , m_pages(new QStackedWidget(this))
    , m_empty(new EmptyState(QString(), QString(), this))
    , m_table(new QTableView(this))
{
    m_tableProxy->setSourceModel(m_model);
    m_chart = new charts::FailoverChart(m_tableProxy, this);

    auto* windowRow = new QHBoxLayout;
    auto* windowLabel = new QLabel(tr("Window"), this);
    windowLabel->setFont(withPointSize(font(), headerPointSize, true));
    windowRow->addWidget(windowLabel);
    for (const qint64 window : windows) {
        auto* button = new QPushButton(FailoverTableModel::windowLabel(window), this);
        button->setCheckable(true);
        button->setFont(withPointSize(font(), headerPointSize));
        button->setMinimumHeight(button->fontMetrics().height() * 2);
        button->setObjectName(QStringLiteral("window%1").arg(window));
        m_windows->addButton(button);
        windowRow->addWidget(button);
        connect(button, &QPushButton::toggled, this, [this, window](bool checked) {
            if (!checked)
                return;
            m_model->setWindowMs(window);
            updateSummary();
            Q_EMIT windowChanged(window);
        });
    }
    windowRow->addSpacing(24);
    m_summary->setFont(withPointSize(font(), headerPointSize));
    m_summary->setObjectName(QStringLiteral("failoverSummary"));
    windowRow->addWidget(m_summary, 1);

    m_table->setObjectName(QStringLiteral("failoverTable"));
    m_table->setModel(m_tableProxy);
    makeReadable(m_table);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(FailoverTableModel::Failovers, Qt::DescendingOrder);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(FailoverTableModel::Method,
                                                      QHeaderView::Stretch);

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_chart);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    m_pages->addWidget(m_empty);
    m_pages->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 0);
    layout->addLayout(windowRow);
    layout->addWidget(m_pages, 1);

    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(m_tableProxy, signal, this, &FailoversView::updateSummary);
    connect(m_tableProxy, &QAbstractItemModel::modelReset, this, &FailoversView::updateSummary);
    connect(m_tableProxy, &QAbstractItemModel::dataChanged, this, &FailoversView::updateSummary);
    connect(m_tableProxy, &QAbstractItemModel::layoutChanged, this, &FailoversView::updateSummary);
    setWindowMs(m_model->windowMs());
    updateSummary();
}

void FailoversView::setNetwork(const QString& network)
{
    m_tableProxy->setNetwork(network);
    m_table->setColumnHidden(FailoverTableModel::Network, !network.isEmpty());
    m_chart->setNetworkInLabels(network.isEmpty());
    updateSummary();
}

void FailoversView::setWindowMs(qint64 ms)
{
    for (QAbstractButton* button : m_windows->buttons())
        if (button->objectName() == QStringLiteral("window%1").arg(ms))
            button->setChecked(true);
}

qint64 FailoversView::windowMs() const
{
    return m_model->windowMs();
}

QString FailoversView::summaryText() const
{
    return m_summary->text();
}

void FailoversView::updateSummary()
{
    const QString window = FailoverTableModel::windowLabel(m_model->windowMs());
    qint64 calls = 0;
    qint64 failovers = 0;
    for (int row = 0; row < m_tableProxy->rowCount(); ++row) {
        calls += m_tableProxy->index(row, FailoverTableModel::Calls).data().toLongLong();
        failovers += m_tableProxy->index(row, FailoverTableModel::Failovers).data().toLongLong();
    }
    const QString network = m_tableProxy->network();
    if (m_tableProxy->rowCount() == 0) {
        m_empty->setText(
            tr("No calls in the %1").arg(window),
            tr("Every call routed through the pool is counted here per RPC method, "
               "and every hop to another node with its cause.") +
                (network.isEmpty() ? QString() : tr(" Showing %1 only.").arg(network)));
        m_pages->setCurrentWidget(m_empty);
    } else {
        m_pages->setCurrentIndex(1);
    }
    m_summary->setText(tr("%1 failover(s) over %2 call(s) in the %3")
                           .arg(QLocale().toString(failovers), QLocale().toString(calls), window));
    m_chart->setTitle(failovers == 0 && calls > 0
                          ? tr("No failovers in the %1: every call was answered by the first "
                               "node asked")
                                .arg(window)
                          : tr("Failovers per method by cause, %1").arg(window));
}

} // namespace switchyard::ui
