#include "attention/alerthistorydialog.h"

#include "alerts/alerthistory.h"
#include "alerts/alertmonitor.h"
#include "appearance.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace switchyard::ui {

namespace {

// Room at least for a grouped alert's title ("demo-solana: 12 transactions close to expiry, the
// first in 49 blocks") in the table's large type.
constexpr int notificationColumnChars = 62;

} // namespace

AlertHistoryDialog::AlertHistoryDialog(AlertHistory* history, AlertMonitor* monitor,
                                       QWidget* parent)
    : QDialog(parent)
    , m_history(history)
    , m_monitor(monitor)
    , m_table(new QTableView(this))
    , m_detail(new QLabel(this))
    , m_empty(new QLabel(tr("No notification yet in this session."), this))
{
    setObjectName(QStringLiteral("alertHistoryDialog"));
    setWindowTitle(tr("Notification history"));
    m_table->setObjectName(QStringLiteral("alertHistoryTable"));
    m_table->setModel(history);
    makeReadable(m_table);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false);
    fitColumns();

    m_detail->setObjectName(QStringLiteral("alertHistoryDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setFont(withPointSize(font(), headerPointSize));
    m_detail->setMinimumHeight(QFontMetrics(m_detail->font()).lineSpacing() * 3);
    m_detail->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_empty->setFont(withPointSize(font(), headerPointSize));

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_open = buttons->addButton(tr("Open"), QDialogButtonBox::ActionRole);
    m_open->setObjectName(QStringLiteral("alertHistoryOpen"));
    m_acknowledge = buttons->addButton(tr("Acknowledge"), QDialogButtonBox::ActionRole);
    m_acknowledge->setObjectName(QStringLiteral("alertHistoryAcknowledge"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_open, &QPushButton::clicked, this, [this] {
        if (const int row = selectedRow(); row >= 0)
            Q_EMIT openRequested(m_history->entry(row).alert.target);
    });
    connect(m_acknowledge, &QPushButton::clicked, this, [this] {
        if (const int row = selectedRow(); row >= 0)
            m_monitor->acknowledge(m_history->entry(row).alert.key);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &AlertHistoryDialog::selectionChanged);
    // An acknowledgement from the notification, or a clear, changes what the buttons offer.
    connect(history, &QAbstractItemModel::dataChanged, this, &AlertHistoryDialog::selectionChanged);
    connect(history, &QAbstractItemModel::rowsInserted, this, [this] {
        m_empty->setVisible(m_history->rowCount() == 0);
        fitColumns();
        selectionChanged();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_empty);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_detail);
    layout->addWidget(buttons);
    m_empty->setVisible(history->rowCount() == 0);
    selectionChanged();
    fitToScreen(this, QSize(header->sectionSize(AlertHistory::Time) +
                                header->sectionSize(AlertHistory::Severity) +
                                header->sectionSize(AlertHistory::Status) +
                                header->sectionSize(AlertHistory::Notification) + 60,
                            620));
}

void AlertHistoryDialog::fitColumns()
{
    const QFontMetrics metrics(m_table->font());
    const auto* view = static_cast<const QAbstractItemView*>(m_table);
    for (const auto& [column, sample] :
         {std::pair{AlertHistory::Time, QStringLiteral("23:59:59 UTC")},
          std::pair{AlertHistory::Severity, QStringLiteral("Critical")},
          std::pair{AlertHistory::Status, QStringLiteral("Acknowledged at 23:59:59 UTC")}})
        m_table->setColumnWidth(column,
                                std::max(metrics.horizontalAdvance(sample) + 2 * cellPadding,
                                         view->sizeHintForColumn(column)));
    m_table->setColumnWidth(
        AlertHistory::Notification,
        std::max(metrics.averageCharWidth() * notificationColumnChars + 2 * cellPadding,
                 view->sizeHintForColumn(AlertHistory::Notification)));
}

int AlertHistoryDialog::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : rows.first().row();
}

void AlertHistoryDialog::selectionChanged()
{
    const int row = selectedRow();
    const bool any = row >= 0;
    m_open->setEnabled(any);
    m_acknowledge->setEnabled(any && m_history->entry(row).outcome == AlertHistory::Outcome::Open);
    m_detail->setText(any ? QStringLiteral("<b>%1</b><br>%2")
                                .arg(m_history->entry(row).alert.title.toHtmlEscaped(),
                                     m_history->entry(row).alert.body.toHtmlEscaped())
                          : tr("Select a notification to read it whole."));
}

} // namespace switchyard::ui
