import Foundation
import ShareSheet
import ShareSheetSystem

/// Where Mail and Message send with a host's configuration, as `ActivityRoute` facts: read
/// from the settings only, nothing is sent and no password is looked up.
enum MailRoutes {
    /// Mail: the SMTP server and sender, the desktop's mail program, or the outbox.
    static func mail(host: HostEnvironment) -> ActivityRoute {
        let settings: MailSettings
        do {
            settings = try MailSettings(
                configuration: host.loadConfiguration(), overrides: [:], environment: host.variables,
                directories: host.directories, looksUpPassword: false)
        } catch let error as ShareError {
            return ActivityRoute("cannot send: \(error.message)", settings: [.init(group: "mail", key: "smtp")])
        } catch {
            return ActivityRoute("cannot send: \(error)", settings: [.init(group: "mail", key: "smtp")])
        }
        if settings.handOff {
            return ActivityRoute(
                "hands each message to the desktop's mail program (a mailto: link)", settings: [.init(group: "mail", key: "via")])
        }
        guard settings.smtp != nil else {
            return ActivityRoute(
                "no mail server is set: messages are kept in the outbox (\(settings.outbox.folder.path))",
                isFallback: true, settings: [.init(group: "mail", key: "smtp")])
        }
        var summary = "sends through \(settings.serverName) as \(settings.sender)"
        if let user = settings.user { summary += ", logging in as \(user)" }
        return ActivityRoute(summary, settings: [.init(group: "mail", key: "smtp"), .init(group: "mail", key: "from")])
    }

    /// Message: KDE Connect, the registered `sms:` handler, or the Messages outbox, in the
    /// order `MessageDelivery` tries them.
    static func message(host: HostEnvironment) -> ActivityRoute {
        let settings: MessageSettings
        do {
            settings = try MessageSettings(host: host)
        } catch let error as ShareError {
            return ActivityRoute("cannot send: \(error.message)", settings: [.init(group: "message", key: "via")])
        } catch {
            return ActivityRoute("cannot send: \(error)", settings: [.init(group: "message", key: "via")])
        }
        let via = [ActivityRoute.Setting(group: "message", key: "via")]
        let kdeConnect = KDEConnect.tool(in: settings.searchPath) != nil
        switch settings.via {
        case .kdeconnect:
            return ActivityRoute("sends through KDE Connect (device \(settings.kdeConnectDevice ?? "not set"))", settings: via)
        case .handler:
            return ActivityRoute("hands each message to the desktop's sms: handler", settings: via)
        case .outbox:
            return ActivityRoute(
                "keeps messages in the outbox (\(settings.outbox.folder.path))", isFallback: true, settings: via)
        case .auto:
            if let device = settings.kdeConnectDevice, kdeConnect {
                return ActivityRoute("sends through KDE Connect (device \(device))", settings: via)
            }
            if DesktopLauncher.hasHandler(forScheme: "sms") {
                return ActivityRoute("hands each message to the desktop's sms: handler", settings: via)
            }
            return ActivityRoute(
                "no SMS transport here: messages are kept in the outbox (\(settings.outbox.folder.path))", isFallback: true,
                settings: via + [.init(group: "message", key: "kdeconnect-device")])
        }
    }
}
