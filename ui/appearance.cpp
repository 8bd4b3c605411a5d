#include "appearance.h"

#include <QGuiApplication>
#include <QHash>
#include <QHeaderView>
#include <QPalette>
#include <QScreen>
#include <QStyle>
#include <QTableView>

namespace switchyard::ui {

QIcon themeIcon(const QString& name)
{
    // One icon per name for the life of the application: Qt's SVG icon engine keys the pixmaps
    // it renders by the engine, so a new QIcon per call (a label refreshed every second, a
    // delegate painting a cell) put a new pixmap in the pixmap cache each time.
    // Released with the application, before the static destructors: an icon outlives no
    // QGuiApplication.
    static QHash<QString, QIcon> icons = [] {
        qAddPostRoutine([] { icons.clear(); });
        return QHash<QString, QIcon>();
    }();
    auto found = icons.constFind(name);
    if (found == icons.cend())
        found = icons.insert(name, QIcon(QStringLiteral(":/switchyard/%1.svg").arg(name)));
    return *found;
}

QIcon stateIcon(NodeState state)
{
    return themeIcon(QStringLiteral("state-") + nodeStateKey(state));
}

QColor stateColor(NodeState state)
{
    switch (state) {
    case NodeState::Healthy:
        return QColor(0x1b, 0x7f, 0x3b);
    case NodeState::Lagging:
        return QColor(0x9a, 0x52, 0x00);
    case NodeState::Unhealthy:
        return QColor(0xb7, 0x1c, 0x1c);
    case NodeState::Probation:
        return QColor(0x15, 0x65, 0xc0);
    case NodeState::Disabled:
    case NodeState::NotProbed:
        return QColor(0x55, 0x55, 0x55);
    case NodeState::WrongNetwork:
        return QColor(0x7b, 0x1f, 0xa2);
    case NodeState::Diverged:
        return QColor(0xad, 0x14, 0x57);
    case NodeState::Quarantined:
        return QColor(0x6d, 0x4c, 0x41);
    }
    Q_UNREACHABLE();
}

QFont withPointSize(QFont font, qreal pointSize, bool bold)
{
    font.setPointSizeF(pointSize);
    font.setBold(bold);
    return font;
}

void setTextColor(QWidget* widget, const QColor& color)
{
    QPalette palette = widget->palette();
    palette.setColor(QPalette::WindowText, color);
    palette.setColor(QPalette::Text, color);
    palette.setColor(QPalette::ButtonText, color);
    widget->setPalette(palette);
}

void makeReadable(QTableView* table)
{
    table->setFont(withPointSize(table->font(), tablePointSize));
    table->horizontalHeader()->setFont(withPointSize(table->font(), headerPointSize, true));
    table->setIconSize(QSize(tableIconSize, tableIconSize));
    const int rowHeight = std::max(table->fontMetrics().height() * 9 / 5, tableIconSize + 12);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(rowHeight);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setMinimumHeight(rowHeight);
    table->horizontalHeader()->setHighlightSections(false);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setShowGrid(false);
    table->setWordWrap(false);
    table->setTextElideMode(Qt::ElideRight);
    // Room between a right-aligned number and the text of the next column.
    table->setStyleSheet(QStringLiteral("QTableView::item { padding-left: %1px; padding-right: "
                                        "%1px; }")
                             .arg(cellPadding));
}

void fitToScreen(QWidget* window, QSize wanted)
{
    const QScreen* screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen) {
        window->resize(wanted);
        return;
    }
    // Before the first show the frame is not known yet: room for a usual title bar and borders.
    const QMargins frameAllowance(8, 40, 8, 8);
    const QRect area = screen->availableGeometry().marginsRemoved(frameAllowance);
    const QSize size = wanted.boundedTo(area.size()).expandedTo(window->minimumSize());
    window->setGeometry(QStyle::alignedRect(Qt::LeftToRight, Qt::AlignCenter, size, area));
}

} // namespace switchyard::ui
