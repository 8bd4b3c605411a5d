#include "themeicondelegate.h"

#include "appearance.h"

namespace switchyard::ui {

ThemeIconDelegate::ThemeIconDelegate(int iconNameRole, QObject* parent)
    : QStyledItemDelegate(parent)
    , m_iconNameRole(iconNameRole)
{}

void ThemeIconDelegate::initStyleOption(QStyleOptionViewItem* option,
                                        const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QString name = index.data(m_iconNameRole).toString();
    if (name.isEmpty())
        return;
    option->icon = themeIcon(name);
    option->features |= QStyleOptionViewItem::HasDecoration;
    option->decorationSize = QSize(tableIconSize, tableIconSize);
}

} // namespace switchyard::ui
