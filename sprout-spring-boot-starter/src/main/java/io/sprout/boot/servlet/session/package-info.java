/**
 * In-memory HTTP sessions: the store with expiry and id changes, the session with its attributes and binding
 * events, and the session cookie configuration.
 */
package io.sprout.boot.servlet.session;
