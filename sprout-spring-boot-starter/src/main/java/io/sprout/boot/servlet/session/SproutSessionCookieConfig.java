package io.sprout.boot.servlet.session;

import jakarta.servlet.SessionCookieConfig;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The session cookie's settings. Changeable only while the context initialises ({@link #lock()} is called when it
 * starts); after that every setter throws {@link IllegalStateException}, as the Servlet spec requires.
 * {@code HttpOnly} is on by default, as in Tomcat.
 */
public final class SproutSessionCookieConfig implements SessionCookieConfig {

    private static final String MAX_AGE = "Max-Age";
    private static final String DOMAIN = "Domain";
    private static final String PATH = "Path";
    private static final String SECURE = "Secure";
    private static final String HTTP_ONLY = "HttpOnly";

    private final Map<String, String> attributes = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private volatile String name = "JSESSIONID";
    private volatile boolean locked;

    public SproutSessionCookieConfig() {
        attributes.put(HTTP_ONLY, "");
    }

    public void lock() {
        locked = true;
    }

    @Override
    public void setName(String value) {
        checkUnlocked();
        name = value;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public void setDomain(String domain) {
        setAttribute(DOMAIN, domain);
    }

    @Override
    public String getDomain() {
        return getAttribute(DOMAIN);
    }

    @Override
    public void setPath(String path) {
        setAttribute(PATH, path);
    }

    @Override
    public String getPath() {
        return getAttribute(PATH);
    }

    @Override
    @Deprecated
    @SuppressWarnings("removal")
    public void setComment(String comment) {
        checkUnlocked();
    }

    @Override
    @Deprecated
    @SuppressWarnings("removal")
    public String getComment() {
        return null;
    }

    @Override
    public void setHttpOnly(boolean httpOnly) {
        setAttribute(HTTP_ONLY, httpOnly ? "" : null);
    }

    @Override
    public boolean isHttpOnly() {
        return getAttribute(HTTP_ONLY) != null;
    }

    @Override
    public void setSecure(boolean secure) {
        setAttribute(SECURE, secure ? "" : null);
    }

    @Override
    public boolean isSecure() {
        return getAttribute(SECURE) != null;
    }

    @Override
    public void setMaxAge(int maxAge) {
        setAttribute(MAX_AGE, String.valueOf(maxAge));
    }

    @Override
    public int getMaxAge() {
        String value = getAttribute(MAX_AGE);
        return value == null ? -1 : Integer.parseInt(value);
    }

    @Override
    public synchronized void setAttribute(String attributeName, String value) {
        checkUnlocked();
        if (value == null) {
            attributes.remove(attributeName);
        } else {
            attributes.put(attributeName, value);
        }
    }

    @Override
    public synchronized String getAttribute(String attributeName) {
        return attributes.get(attributeName);
    }

    @Override
    public synchronized Map<String, String> getAttributes() {
        return Collections.unmodifiableMap(new TreeMap<>(attributes));
    }

    private void checkUnlocked() {
        if (locked) {
            throw new IllegalStateException("The session cookie config can no longer be changed: the context "
                    + "has been initialised");
        }
    }

    /** Lower-cased attribute names, for tests and logs. */
    @Override
    public String toString() {
        return name + getAttributes().toString().toLowerCase(Locale.ROOT);
    }
}
