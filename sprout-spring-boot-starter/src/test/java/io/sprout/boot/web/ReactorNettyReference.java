package io.sprout.boot.web;

import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Reactor Netty as the reference server of a parity test, chosen the way an application chooses a server: by
 * declaring its factory as a bean, before which Sprout's auto-configuration backs off. Its event loops are its own:
 * Sprout applications get Boot's {@link ReactorResourceFactory} too (Reactor Netty is on the class path), which
 * disposes Reactor Netty's global loops when each of them closes, and the reference server must outlive them.
 */
@Configuration(proxyBeanMethods = false)
public class ReactorNettyReference {

    @Bean
    ReactorResourceFactory reactorResourceFactory() {
        ReactorResourceFactory resources = new ReactorResourceFactory();
        resources.setUseGlobalResources(false);
        return resources;
    }

    @Bean
    NettyReactiveWebServerFactory nettyReactiveWebServerFactory(ReactorResourceFactory resources) {
        NettyReactiveWebServerFactory factory = new NettyReactiveWebServerFactory();
        factory.setResourceFactory(resources);
        return factory;
    }
}
