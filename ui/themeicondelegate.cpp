#include "themeicondelegate.h"

#include "appearance.h"

namespace switchyard::ui {

ThemeIconDelegate::ThemeIconDelegate(int iconNameRole, QObject* parent, QString widestText)
    : QStyledItemDelegate(parent)
    , m_iconNameRole(iconNameRole)
    , m_widestText(std::move(widestText))
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
    // A column given way to a narrow window keeps the icon whole rather than an elided word;
    // the model's tooltip still says it.
    const int textRoom = option->rect.width() - tableIconSize - cellPadding * 2 -
                         option->fontMetrics.averageCharWidth();
    if (!m_widestText.isEmpty() && !option->rect.isEmpty() &&
        option->fontMetrics.horizontalAdvance(m_widestText) > textRoom) {
        option->text.clear();
        option->decorationAlignment = Qt::AlignCenter;
        option->features &= ~QStyleOptionViewItem::HasDisplay;
    }
}

} // namespace switchyard::ui
